// An enum field: a select of the names its class allows (from the
// reflection), in value order. A value outside them (none can load, but an
// editor must not hide one) is shown as an extra option.
import { fieldErrors } from '../state/selection.js';
import { FieldError } from './FieldError.jsx';

export function EnumField({ id, label, value, names, name, set, disabled }) {
  const error = fieldErrors.value[name];
  const options = names.includes(value) ? names : [...names, value];
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => set(e.currentTarget.value)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} errorKey={name} />
    </div>
  );
}
