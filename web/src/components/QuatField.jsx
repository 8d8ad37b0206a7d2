// A quat field edited as yaw, pitch and roll in degrees (lib/angles.js
// gives the convention). Each angle is checked by the engine as a number;
// the angle typed replaces its own, the other two stay as the stored quat
// has them, and the field is set to the normalized quat of the three.
import { anglesOfQuat, formatAngle, quatOfAngles } from '../lib/angles.js';
import { checkTyped } from '../state/typed.js';
import { TextField } from './TextField.jsx';

const ANGLES = ['yaw', 'pitch', 'roll'];

export function QuatField({ id, label, value: quat, name, set, disabled }) {
  const angles = anglesOfQuat(quat);
  return (
    <fieldset class="vec3 quat">
      <legend>
        {label} <span class="muted">(degrees)</span>
      </legend>
      {ANGLES.map((angle, i) => (
        <TextField
          key={angle}
          id={`${id}-${angle}`}
          label={`${label} ${angle}`}
          errorKey={`${name}.${angle}`}
          disabled={disabled}
          inputMode="decimal"
          value={formatAngle(angles[i])}
          check={(t) => checkTyped('f32', t)}
          onCommit={(v) => {
            const next = [...angles];
            next[i] = v;
            return set(quatOfAngles(next), `${name}.${angle}`);
          }}
        />
      ))}
    </fieldset>
  );
}
