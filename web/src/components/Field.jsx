// What every field editor shares: the frame around its label and input,
// with the engine's message for a refused value under them (the frame
// marked invalid while there is one), what its input carries, and the
// options of a select of names.
import { fieldErrors } from '../state/selection.js';

// The id of the message of field `id`.
const errorId = (id) => `${id}-error`;

function FieldError({ id, errorKey }) {
  const error = fieldErrors.value[errorKey];
  return error ? (
    <span id={errorId(id)} class="field-error">
      {error}
    </span>
  ) : null;
}

// A field's frame: its label and input (children), then the message of a
// refused value. `check`: laid out as a checkbox beside its label.
export function Field({ id, errorKey, check, children }) {
  const error = fieldErrors.value[errorKey];
  return (
    <div class={`field${check ? ' check' : ''}${error ? ' invalid' : ''}`}>
      {children}
      <FieldError id={id} errorKey={errorKey} />
    </div>
  );
}

// What the input of field `id` carries besides its value: the id, whether
// it is disabled, and while a value is refused, that it is invalid and its
// message (aria-describedby).
export function inputProps(id, errorKey, disabled) {
  const refused = !!fieldErrors.value[errorKey];
  return {
    id,
    disabled,
    'aria-invalid': refused ? 'true' : undefined,
    'aria-describedby': refused ? errorId(id) : undefined,
  };
}

// The options of a select of names, each its own value.
export function NameOptions({ names }) {
  return names.map((name) => (
    <option key={name} value={name}>
      {name}
    </option>
  ));
}
