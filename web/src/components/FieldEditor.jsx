// The editor of one class field, chosen by its reflected type (one of the
// engine's six: f32, index, bool, vec3, color, entity_ref): numbers, index
// (empty = none), bool, colour, vector, and entity reference (with a link
// that selects the target). Values are as world.get() gives them; typed
// text is checked by the engine (state/typed.js) before it is set.
import { formatF32, formatIndex, isNullRef } from '../lib/fields.js';
import { setField } from '../state/edits.js';
import { entityExists, fieldErrors, select } from '../state/selection.js';
import { checkTyped } from '../state/typed.js';
import { TextField } from './TextField.jsx';

const AXES = ['X', 'Y', 'Z'];

// `onSet(name, value, errorKey)` commits a value (the selected entity's
// field by default); `scope` keeps the ids and error keys of another
// editor's fields (the world settings) apart from the entity's.
export function FieldEditor({ field, value, disabled, onSet = setField, scope = '' }) {
  const id = `${scope || 'field'}-${field.name.replace(/[^\w-]/g, '_')}`;
  const name = scope ? `${scope}.${field.name}` : field.name; // the error key
  const set = (v, key = name) => onSet(field.name, v, key);
  const common = { id, label: field.name, errorKey: name, disabled, name, set };
  switch (field.type) {
    case 'f32':
      return (
        <TextField
          {...common}
          inputMode="decimal"
          value={formatF32(value)}
          check={(t) => checkTyped('f32', t, { allowInf: field.allowInf })}
          onCommit={(v) => set(v)}
        />
      );
    case 'index':
      return (
        <TextField
          {...common}
          inputMode="numeric"
          placeholder="none"
          value={formatIndex(value)}
          check={(t) => checkTyped('index', t)}
          onCommit={(v) => set(v)}
        />
      );
    case 'bool':
      return <BoolField {...common} value={value} />;
    case 'color':
      return <ColorField {...common} value={value} />;
    case 'vec3':
      return <Vec3Field {...common} value={value} />;
    case 'entity_ref':
      return <RefField {...common} value={value} />;
  }
}

function ErrorText({ id, errorKey }) {
  const error = fieldErrors.value[errorKey];
  return error ? (
    <span id={id} class="field-error">
      {error}
    </span>
  ) : null;
}

function BoolField({ id, label, value, name, set, disabled }) {
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
      <ErrorText id={`${id}-error`} errorKey={name} />
    </div>
  );
}

function ColorField({ id, label, value, name, set, disabled }) {
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
      <ErrorText id={`${id}-error`} errorKey={name} />
    </div>
  );
}

function Vec3Field({ id, label, value: vector, name, set, disabled }) {
  return (
    <fieldset class="vec3">
      <legend>{label}</legend>
      {AXES.map((axis, i) => (
        <TextField
          key={axis}
          id={`${id}-${axis}`}
          label={`${label} ${axis}`}
          errorKey={`${name}.${i}`}
          disabled={disabled}
          inputMode="decimal"
          value={formatF32(vector[i])}
          check={(t) => checkTyped('f32', t)}
          onCommit={(v) => {
            const next = [...vector];
            next[i] = v;
            return set(next, `${name}.${i}`);
          }}
        />
      ))}
    </fieldset>
  );
}

// `value` is the target's ID, or null for none.
function RefField({ id, label, value: target, name, set, disabled }) {
  const none = isNullRef(target);
  return (
    <div class="ref-field">
      <TextField
        id={id}
        label={label}
        errorKey={name}
        disabled={disabled}
        placeholder="none"
        value={none ? '' : target}
        check={async (t) => {
          const checked = await checkTyped('entity_ref', t);
          if (checked.error || checked.value === null) return checked;
          if (!entityExists(checked.value)) return { error: `No entity ${checked.value} in this world` };
          return checked;
        }}
        onCommit={(v) => set(v)}
      />
      {!none &&
        (entityExists(target) ? (
          <button type="button" class="link" onClick={() => select(target)}>
            Go to {target}
          </button>
        ) : (
          <span class="muted">{target} is not in this world</span>
        ))}
    </div>
  );
}
