// The Add entity dialog: a class and a position (by default the centre of
// the map), each coordinate checked by the engine (and snapped to the grid
// when snap is on) before it creates the entity; or, with Place on map, the
// place mode for that class (the position gives the axis the map does not
// show).
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatF32 } from '../lib/fields.js';
import { addEntity } from '../state/edits.js';
import { axes, center } from '../state/mapView.js';
import { snapTyped, startPlacing } from '../state/placement.js';
import { checkTyped } from '../state/typed.js';
import { classCounts } from '../state/listView.js';
import { classNames } from '../state/world.js';
import { NameOptions } from './Field.jsx';

const AXES = ['X', 'Y', 'Z'];

export function AddEntityDialog({ onClose }) {
  const dialog = useRef(null);
  // The classes the world has entities of first: a class compiled into
  // the inspector but absent from the world is seldom the one wanted.
  const counts = classCounts.value;
  const names = [...classNames.value].sort((a, b) => ((counts[b] ?? 0) > 0) - ((counts[a] ?? 0) > 0));
  const [className, setClassName] = useState(names[0] ?? '');
  const [coords, setCoords] = useState(() => {
    const start = [0, 0, 0];
    const [h, v] = axes.peek();
    start[h] = Math.round(center.peek()[0] * 100) / 100;
    start[v] = Math.round(center.peek()[1] * 100) / 100;
    return start.map(formatF32);
  });
  const [errors, setErrors] = useState([null, null, null]);

  useEffect(() => {
    const el = dialog.current;
    el.showModal();
    const onCancel = () => onClose();
    el.addEventListener('close', onCancel);
    return () => el.removeEventListener('close', onCancel);
  }, []);

  // Create (Enter), or enter place mode with `place`.
  async function finish(place) {
    const checked = await Promise.all(coords.map((t) => checkTyped('f32', t)));
    const errs = checked.map((c) => c.error ?? null);
    setErrors(errs);
    if (errs.some(Boolean) || !className) return;
    const position = checked.map((c) => snapTyped(c.value));
    dialog.current.close();
    if (place) startPlacing(className, position);
    else await addEntity(className, position);
  }

  return (
    <dialog ref={dialog} class="add-dialog" aria-labelledby="add-title">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          finish(false);
        }}
      >
        <h2 id="add-title">Add entity</h2>
        <div class="field">
          <label for="add-class">Class</label>
          <select id="add-class" value={className} onChange={(e) => setClassName(e.currentTarget.value)}>
            <NameOptions names={names} />
          </select>
        </div>
        <fieldset class="vec3">
          <legend>Position</legend>
          {AXES.map((axis, i) => (
            <div class={`field${errors[i] ? ' invalid' : ''}`} key={axis}>
              <label for={`add-${axis}`}>{axis}</label>
              <input
                id={`add-${axis}`}
                type="text"
                inputMode="decimal"
                value={coords[i]}
                aria-invalid={errors[i] ? 'true' : undefined}
                aria-describedby={errors[i] ? `add-${axis}-error` : undefined}
                onInput={(e) => {
                  const next = [...coords];
                  next[i] = e.currentTarget.value;
                  setCoords(next);
                }}
              />
              {errors[i] && (
                <span id={`add-${axis}-error`} class="field-error">
                  {errors[i]}
                </span>
              )}
            </div>
          ))}
        </fieldset>
        <div class="dialog-buttons">
          <button type="button" onClick={() => dialog.current.close()}>
            Cancel
          </button>
          <button type="button" onClick={() => finish(true)} title="Then each click on empty map space creates one; Escape stops">
            Place on map
          </button>
          <button type="submit" class="primary">
            Create
          </button>
        </div>
      </form>
    </dialog>
  );
}
