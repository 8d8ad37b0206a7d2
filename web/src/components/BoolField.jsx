// A bool field: a checkbox.
import { fieldErrors } from '../state/selection.js';
import { FieldError } from './FieldError.jsx';

export function BoolField({ id, label, value, name, set, disabled }) {
  const error = fieldErrors.value[name];
  return (
    <div class={`field check${error ? ' invalid' : ''}`}>
      <input
        id={id}
        type="checkbox"
        checked={value}
        disabled={disabled}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => set(e.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
      <FieldError id={`${id}-error`} errorKey={name} />
    </div>
  );
}
