// A vec2 or vec3 field: one number per axis.
import { formatF32 } from '../lib/fields.js';
import { NumberFields } from './NumberFields.jsx';

const AXES = ['X', 'Y', 'Z'];

export function VectorField({ value: vector, label, ...props }) {
  return (
    <NumberFields
      {...props}
      className={`vec${vector.length}`}
      legend={label}
      label={label}
      parts={AXES.slice(0, vector.length)}
      numbers={vector}
      format={formatF32}
      valueOf={(next) => next}
    />
  );
}
