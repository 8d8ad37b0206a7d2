// A quat field edited as yaw, pitch and roll in degrees (lib/angles.js
// gives the convention). The angle typed replaces its own, the other two
// stay as shown, and the field is set to the normalized quat of the three;
// the angles typed stay shown while the stored quat is theirs.
import { useRef } from 'preact/hooks';
import { anglesShown, formatAngle, quatOfAngles } from '../lib/angles.js';
import { NumberFields } from './NumberFields.jsx';

export function QuatField({ value: quat, label, ...props }) {
  const typed = useRef(null);
  return (
    <NumberFields
      {...props}
      className="vec3 quat"
      legend={
        <>
          {label} <span class="muted">(degrees)</span>
        </>
      }
      label={label}
      parts={['yaw', 'pitch', 'roll']}
      numbers={anglesShown(quat, typed.current)}
      format={formatAngle}
      valueOf={(angles) => quatOfAngles((typed.current = angles))}
    />
  );
}
