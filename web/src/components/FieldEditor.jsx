// The editor of one class field, chosen by its reflected type: text checked
// by the engine for numbers (f32, i32, u32, index with empty = none) and
// strings (one line), a checkbox for bool, a picker for color, a select of
// its names for enum, one number per axis for vec2 and vec3, yaw / pitch /
// roll for quat, an ID with a link for entity_ref; a type without an
// editor is shown read-only. Values are as world.get() gives them; typed
// text is checked by the engine (state/typed.js) before it is set.
import { formatF32, formatIndex } from '../lib/fields.js';
import { setField } from '../state/edits.js';
import { checkTyped } from '../state/typed.js';
import { BoolField } from './BoolField.jsx';
import { ColorField } from './ColorField.jsx';
import { EnumField } from './EnumField.jsx';
import { QuatField } from './QuatField.jsx';
import { ReadOnlyField } from './ReadOnlyField.jsx';
import { RefField } from './RefField.jsx';
import { TextField } from './TextField.jsx';
import { VectorField } from './VectorField.jsx';

// The text fields: how a value shows, and the keyboard a phone offers.
const TEXT = {
  f32: { format: formatF32, inputMode: 'decimal' },
  i32: { format: String, inputMode: 'numeric' },
  u32: { format: String, inputMode: 'numeric' },
  index: { format: formatIndex, inputMode: 'numeric', placeholder: 'none' },
  string: { format: (v) => v },
};

// The other editors, by type.
const EDITORS = {
  bool: BoolField,
  color: ColorField,
  enum: EnumField,
  vec2: VectorField,
  vec3: VectorField,
  quat: QuatField,
  entity_ref: RefField,
};

// `onSet(name, value, errorKey)` commits a value (the selected entity's
// field by default); `scope` keeps the ids and error keys of another
// editor's fields (the world settings) apart from the entity's. `mixed`:
// the selected entities hold different values (a text field shows none,
// another editor `value` with a note).
export function FieldEditor({ field, value, disabled, onSet = setField, scope = '', mixed = false }) {
  const id = `${scope || 'field'}-${field.name.replace(/[^\w-]/g, '_')}`;
  const name = scope ? `${scope}.${field.name}` : field.name; // the error key
  const set = (v, key = name) => onSet(field.name, v, key);
  const text = TEXT[field.type];
  if (text) {
    return (
      <TextField
        id={id}
        label={field.name}
        errorKey={name}
        disabled={disabled}
        inputMode={text.inputMode}
        placeholder={mixed ? 'mixed' : text.placeholder}
        value={mixed ? '' : text.format(value)}
        check={(t) => checkTyped(field.type, t, { allowInf: field.allowInf })}
        onCommit={(v) => set(v)}
      />
    );
  }
  const Editor = EDITORS[field.type];
  if (!Editor) return <ReadOnlyField id={id} label={field.name} type={field.type} value={value} />;
  const editor = <Editor id={id} label={field.name} value={value} names={field.names} name={name} set={set} disabled={disabled} />;
  if (!mixed) return editor;
  return (
    <div class="mixed-field">
      {editor}
      <p class="muted mixed-note">{field.name}: the selected entities differ</p>
    </div>
  );
}
