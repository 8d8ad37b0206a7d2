// The inspector: the selected entity's identity, its position and one
// editor per field of its class, built from the class reflection; below,
// the world settings. A file that failed to load, selected in the list,
// shows its diagnostic instead (FailedFiles.jsx).
import { entityPath, formatF32 } from '../lib/fields.js';
import { setPositionAxis } from '../state/edits.js';
import { shownFailure } from '../state/failed.js';
import { selected } from '../state/selection.js';
import { checkTyped } from '../state/typed.js';
import { schemas, status } from '../state/world.js';
import { FailedFile } from './FailedFiles.jsx';
import { FieldEditor } from './FieldEditor.jsx';
import { TextField } from './TextField.jsx';
import { WorldSettings } from './WorldSettings.jsx';

const AXES = ['X', 'Y', 'Z'];

export function Inspector() {
  const entity = selected.value;
  const failure = shownFailure.value;
  return (
    <section class="pane inspector" aria-label="Inspector">
      {failure && !entity ? (
        <FailedFile failure={failure} />
      ) : entity ? (
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
          {entity.opaque && <span> · class unknown to this build</span>}
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
      {entity.opaque && <KeptKeys entity={entity} />}
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

// An entity of a class no build describes (an opaque entity): its keys are
// kept as text and written back unchanged, so they are shown, not edited.
function KeptKeys({ entity }) {
  const keys = Object.entries(entity.fields);
  return (
    <fieldset class="fields kept-keys">
      <legend>{entity.class} keys, kept as text</legend>
      <p class="muted">
        Class {entity.class} is unknown to this build: only its position can be edited; every other key is saved as
        it is.
      </p>
      {keys.length > 0 && (
        <dl>
          {keys.map(([key, text]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <code>{text}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </fieldset>
  );
}
