// The inspector: the selected entity's identity, its position and one
// editor per field of its class, built from the class reflection; below,
// the world settings.
import { entityPath, formatF32 } from '../lib/fields.js';
import { setPositionAxis } from '../state/edits.js';
import { selected } from '../state/selection.js';
import { checkTyped } from '../state/typed.js';
import { schemas, status } from '../state/world.js';
import { FieldEditor } from './FieldEditor.jsx';
import { TextField } from './TextField.jsx';
import { WorldSettings } from './WorldSettings.jsx';

const AXES = ['X', 'Y', 'Z'];

export function Inspector() {
  const entity = selected.value;
  return (
    <section class="pane inspector" aria-label="Inspector">
      {entity ? (
        <EntityEditor key={entity.id} entity={entity} />
      ) : (
        <p class="muted empty">
          {status.value === 'ready'
            ? 'Select an entity in the list or on the map.'
            : 'Open a world to inspect its entities.'}
        </p>
      )}
      <WorldSettings />
    </section>
  );
}

function EntityEditor({ entity }) {
  const fields = schemas.value[entity.class] ?? [];
  const readOnly = !!entity.readOnly;
  return (
    <>
      <header class="inspector-head">
        <h2>
          {entity.class} <code>{entity.id}</code>
        </h2>
        <p class="muted">
          {entityPath(entity.id)} · version {entity.version} · class version {entity.classVersion}
          {entity.dirty && <span class="unsaved"> · unsaved</span>}
          {readOnly && <span> · read-only (written by a newer build)</span>}
        </p>
      </header>
      <fieldset class="vec3">
        <legend>Position</legend>
        {AXES.map((axis, i) => (
          <TextField
            key={axis}
            id={`position-${axis}`}
            label={`Position ${axis}`}
            errorKey={`position.${i}`}
            disabled={readOnly}
            inputMode="decimal"
            value={formatF32(entity.position[i])}
            check={(t) => checkTyped('f32', t)}
            onCommit={(v) => setPositionAxis(i, v)}
          />
        ))}
      </fieldset>
      {fields.length > 0 && (
        <fieldset class="fields">
          <legend>{entity.class} fields</legend>
          {fields.map((field) => (
            <FieldEditor key={field.name} field={field} value={entity.fields[field.name]} disabled={readOnly} />
          ))}
        </fieldset>
      )}
    </>
  );
}
