// An entity_ref field: the target's ID (empty for none), checked by the
// engine and against the world, with a link that selects the target.
import { isNullRef } from '../lib/fields.js';
import { entityExists, select } from '../state/selection.js';
import { checkTyped } from '../state/typed.js';
import { TextField } from './TextField.jsx';

// `value` is the target's ID, or null for none.
export function RefField({ id, label, value: target, name, set, disabled }) {
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
