// The engine's message for a field's refused value, next to its editor.
import { fieldErrors } from '../state/selection.js';

export function FieldError({ id, errorKey }) {
  const error = fieldErrors.value[errorKey];
  return error ? (
    <span id={id} class="field-error">
      {error}
    </span>
  ) : null;
}
