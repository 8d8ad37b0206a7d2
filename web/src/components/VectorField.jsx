// A vec2 or vec3 field: one number per axis, each checked by the engine as
// an f32 before the whole vector is set.
import { formatF32 } from '../lib/fields.js';
import { checkTyped } from '../state/typed.js';
import { TextField } from './TextField.jsx';

const AXES = ['X', 'Y', 'Z'];

export function VectorField({ id, label, value: vector, name, set, disabled }) {
  return (
    <fieldset class={`vec${vector.length}`}>
      <legend>{label}</legend>
      {AXES.slice(0, vector.length).map((axis, i) => (
        <TextField
          key={axis}
          id={`${id}-${axis}`}
          label={`${label} ${axis}`}
          errorKey={`${name}.${i}`}
          disabled={disabled}
          inputMode="decimal"
          value={formatF32(vector[i])}
          check={(t) => checkTyped('f32', t)}
          onCommit={(v) => {
            const next = [...vector];
            next[i] = v;
            return set(next, `${name}.${i}`);
          }}
        />
      ))}
    </fieldset>
  );
}
