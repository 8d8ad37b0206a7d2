// A color field: the browser's colour picker and the value's text.
import { Field, inputProps } from './Field.jsx';

export function ColorField({ id, label, value, name, set, disabled }) {
  return (
    <Field id={id} errorKey={name}>
      <label for={id}>{label}</label>
      <span class="color-row">
        <input
          {...inputProps(id, name, disabled)}
          type="color"
          value={value}
          // A colour input's value is always "#rrggbb" in lower case.
          onChange={(e) => set(e.currentTarget.value)}
        />
        <code>{value}</code>
      </span>
    </Field>
  );
}
