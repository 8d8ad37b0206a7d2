// A color field: the browser's colour picker and the value's text.
import { fieldErrors } from '../state/selection.js';
import { FieldError } from './FieldError.jsx';

export function ColorField({ id, label, value, name, set, disabled }) {
  const error = fieldErrors.value[name];
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <span class="color-row">
        <input
          id={id}
          type="color"
          value={value}
          disabled={disabled}
          aria-describedby={error ? `${id}-error` : undefined}
          // A colour input's value is always "#rrggbb" in lower case.
          onChange={(e) => set(e.currentTarget.value)}
        />
        <code>{value}</code>
      </span>
      <FieldError id={`${id}-error`} errorKey={name} />
    </div>
  );
}
