// A row of numbers edited as one value (a vector's axes, a rotation's
// angles): each typed number is checked by the engine as an f32, then the
// value of the numbers with it in its place is set (`valueOf(numbers)`).
import { checkTyped } from '../state/typed.js';
import { TextField } from './TextField.jsx';

export function NumberFields({ id, legend, label, parts, numbers, format, valueOf, name, set, disabled, className }) {
  return (
    <fieldset class={className}>
      <legend>{legend}</legend>
      {parts.map((part, i) => (
        <TextField
          key={part}
          id={`${id}-${part}`}
          label={`${label} ${part}`}
          errorKey={`${name}.${part}`}
          disabled={disabled}
          inputMode="decimal"
          value={format(numbers[i])}
          check={(t) => checkTyped('f32', t)}
          onCommit={(v) => {
            const next = [...numbers];
            next[i] = v;
            return set(valueOf(next), `${name}.${part}`);
          }}
        />
      ))}
    </fieldset>
  );
}
