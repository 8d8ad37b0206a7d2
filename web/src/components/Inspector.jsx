// The inspector: the selected entity's identity, its position and one
// editor per field of its class, built from the class reflection; with
// several selected, how many of each class, and the position and the
// fields they all have, a value shown where they share it (setting one
// sets it on every selected entity, one undo step); below, the world
// settings. A file that failed to load, selected in the list, shows its
// diagnostic instead (FailedFiles.jsx).
import { useEffect, useState } from 'preact/hooks';
import { entityPath, formatF32 } from '../lib/fields.js';
import { plural } from '../lib/plural.js';
import { setFieldOfSelection, setPositionAxis, setPositionAxisOfSelection } from '../state/edits.js';
import { shownFailure } from '../state/failed.js';
import { snapTyped } from '../state/placement.js';
import { selected, selectedLive, selectionCount, sharedValues } from '../state/selection.js';
import { revision, rowClass, table } from '../state/table.js';
import { checkCoordinateOrMove, checkTyped } from '../state/typed.js';
import { schemas, status } from '../state/world.js';
import { FailedFile } from './FailedFiles.jsx';
import { FieldEditor } from './FieldEditor.jsx';
import { TextField } from './TextField.jsx';
import { WorldSettings } from './WorldSettings.jsx';
import { nameRecord } from 'juliet-world';

const AXES = ['X', 'Y', 'Z'];

export function Inspector() {
  const entity = selected.value;
  const several = selectionCount.value > 1 && selectedLive().length > 1;
  const failure = shownFailure.value;
  return (
    <section class="pane inspector" aria-label="Inspector">
      {several ? (
        <SelectionEditor />
      ) : failure && !entity ? (
        <FailedFile failure={failure} />
      ) : entity ? (
        <EntityEditor key={entity.id} entity={entity} />
      ) : (
        <p class="muted empty">
          {status.value === 'ready' ? 'Select an entity in the list or on the map.' : 'Open a world to inspect its entities.'}
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
          {entity.name && <span class="entity-name">{entity.name} </span>}
          <span class="entity-class">{entity.class}</span> <code>{entity.id}</code>
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
            onCommit={(v) => setPositionAxis(i, snapTyped(v))}
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
        Class {entity.class} is unknown to this build: only its position can be edited; every other key is saved as it is.
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

// Several entities selected: see the file's comment.
function SelectionEditor() {
  const rev = revision.value; // positions and values follow every edit
  const ids = selectedLive();
  const counts = nameRecord();
  for (const id of ids) {
    const name = rowClass(table.rowOf.get(id));
    counts[name] = (counts[name] ?? 0) + 1;
  }
  const classes = Object.keys(counts);
  const fields = sharedFields(classes);
  const [values, setValues] = useState(null);
  const key = `${ids.join(',')}|${fields.map((f) => f.name).join(',')}`;
  useEffect(() => {
    let live = true;
    setValues(null);
    if (fields.length > 0)
      sharedValues(
        ids,
        fields.map((f) => f.name),
      ).then(
        (v) => live && setValues(v),
        () => {},
      );
    return () => {
      live = false;
    };
  }, [key, rev]);

  return (
    <>
      <header class="inspector-head">
        <h2>{plural(ids.length, 'entity', 'entities')} selected</h2>
        <p class="muted">{classes.map((name) => `${counts[name].toLocaleString('en')} ${name}`).join(', ')}</p>
      </header>
      <fieldset class="vec3">
        <legend>Position</legend>
        {AXES.map((axis, i) => {
          const shared = sharedAxis(ids, i);
          return (
            <TextField
              key={axis}
              id={`position-${axis}`}
              label={`Position ${axis}`}
              errorKey={`position.${i}`}
              inputMode="decimal"
              placeholder={shared === null ? 'mixed' : undefined}
              value={shared === null ? '' : formatF32(shared)}
              check={checkCoordinateOrMove}
              onCommit={({ value, by }) => setPositionAxisOfSelection(i, snapTyped(value), { by })}
            />
          );
        })}
        <p class="muted hint">Type +5 or -=2.5 to move each by that much.</p>
      </fieldset>
      {fields.length > 0 && (
        <fieldset class="fields">
          <legend>{classes.length === 1 ? `${classes[0]} fields` : 'Fields they all have'}</legend>
          {fields.map((field) => {
            const shared = values?.[field.name];
            const mixed = !shared || shared.mixed;
            return (
              <FieldEditor
                key={field.name}
                field={field}
                value={shared && !shared.mixed ? shared.value : field.default}
                mixed={mixed}
                onSet={setFieldOfSelection}
              />
            );
          })}
        </fieldset>
      )}
    </>
  );
}

// The fields (name and type) every class of `classes` has, in the first's order.
function sharedFields(classes) {
  const [first, ...rest] = classes.map((name) => schemas.value[name] ?? []);
  return (first ?? []).filter((f) => rest.every((fs) => fs.some((g) => g.name === f.name && g.type === f.type)));
}

// The value of position axis `axis` all of `ids` share, or null.
function sharedAxis(ids, axis) {
  const value = table.pos[table.rowOf.get(ids[0]) * 3 + axis];
  return ids.every((id) => table.pos[table.rowOf.get(id) * 3 + axis] === value) ? value : null;
}
