// A bool field: a checkbox.
import { Field, inputProps } from './Field.jsx';

export function BoolField({ id, label, value, name, set, disabled }) {
  return (
    <Field id={id} errorKey={name} check>
      <input {...inputProps(id, name, disabled)} type="checkbox" checked={value} onChange={(e) => set(e.currentTarget.checked)} />
      <label for={id}>{label}</label>
    </Field>
  );
}
