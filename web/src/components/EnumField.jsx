// An enum field: a select of the names its class allows (from the
// reflection), in value order. A value outside them (none can load, but an
// editor must not hide one) is shown as an extra option.
import { Field, NameOptions, inputProps } from './Field.jsx';

export function EnumField({ id, label, value, names, name, set, disabled }) {
  return (
    <Field id={id} errorKey={name}>
      <label for={id}>{label}</label>
      <select {...inputProps(id, name, disabled)} value={value} onChange={(e) => set(e.currentTarget.value)}>
        <NameOptions names={names.includes(value) ? names : [...names, value]} />
      </select>
    </Field>
  );
}
