// A quat field edited as yaw, pitch and roll in degrees (lib/angles.js
// gives the convention). The angle typed replaces its own, the other two
// stay as the stored quat has them, and the field is set to the normalized
// quat of the three.
import { anglesOfQuat, formatAngle, quatOfAngles } from '../lib/angles.js';
import { NumberFields } from './NumberFields.jsx';

export function QuatField({ value: quat, label, ...props }) {
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
      numbers={anglesOfQuat(quat)}
      format={formatAngle}
      valueOf={quatOfAngles}
    />
  );
}
