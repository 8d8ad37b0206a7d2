// The 3D viewport: the level in perspective or in orthographic Top, Front
// and Side views (viewport/scene.js, three.js, loaded on first show as its
// own chunk), the entities the list shows (its filter and query applied).
// Click picks (Shift adds, Ctrl/Cmd toggles, as in the list), a drag from
// empty space selects what its rubber band encloses, the entity under the
// pointer is named in a tooltip; right-drag looks around (W/A/S/D/Q/E fly
// meanwhile), Alt+drag orbits, middle-drag pans, the wheel dollies, F
// frames the selection (the whole world when nothing is selected). The
// gizmo on the selection moves it along an axis or a plane (W), or turns
// it (E, for a class with a quat field), with Snap, as one edit; in place
// mode a click places on the grid's plane, and copies go to the point
// under the pointer.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { classColor } from '../lib/classColor.js';
import { formatCoordinate } from '../lib/mapGrid.js';
import { nearestInDirection, nearestPoint } from '../lib/mapNearest.js';
import { turnedQuat } from '../lib/angles.js';
import { deleteEntity, moveEntities, setFromView } from '../state/edits.js';
import { readDetails, rotationFieldOf, shapeOf } from '../state/entityDetails.js';
import { setPointForCopies } from '../state/copies.js';
import { placeAtPoint, placing, snap, snapPointer } from '../state/placement.js';
import {
  addToSelection,
  select,
  readAhead,
  selectAllOnKey,
  selectedId,
  selectedIds,
  selectedLive,
  selectedRows,
  setSelection,
  takeClick,
  toggleSelected,
} from '../state/selection.js';
import { changedRowsSince, revision, rowClass, rowPosition, table } from '../state/table.js';
import { showViewport, viewportCamera } from '../state/viewMode.js';
import { pickable, toggleIsolation, viewRows } from '../state/viewFilter.js';
import { EntityTooltip } from './EntityTooltip.jsx';
import { Legend } from './Legend.jsx';
import { PickStatus } from './PickStatus.jsx';
import { PlacementTools } from './PlacementTools.jsx';
import { RubberBand } from './RubberBand.jsx';

const VIEW_KEYS = { 7: 'top', 1: 'front', 3: 'side', 5: 'perspective' }; // as Godot's numpad
const VIEW_NAMES = [
  ['perspective', 'Perspective', '5'],
  ['top', 'Top', '7'],
  ['front', 'Front', '1'],
  ['side', 'Side', '3'],
];
const GIZMO_KEYS = { w: 'translate', e: 'rotate' }; // as in Unreal and Godot
const CLICK_PX = 4; // a press that moves less is a click, not a drag

// [r, g, b] in 0..1 of "#rrggbb".
function rgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255];
}

const hundredth = (v) => Math.round(v * 100) / 100;

// The selection moved by `delta` (a drag of the gizmo) as one edit.
function moveSelection(delta) {
  const moves = selectedLive().map((id) => {
    const from = rowPosition(table.rowOf.get(id));
    return { id, from, to: from.map((v, axis) => hundredth(v + delta[axis])) };
  });
  if (moves.length) moveEntities(moves);
}

// The selection turned by quat `turn` (a drag of the rotate gizmo) as one
// edit: each entity whose class has a quat field, about its own place.
async function turnSelection(turn) {
  const { rows } = selectedRows();
  const details = await readDetails(rows);
  const sets = [];
  for (const row of rows) {
    const field = rotationFieldOf(rowClass(row));
    const rotation = details.get(row)?.rotation;
    if (field && rotation) sets.push([table.ids[row], field, turnedQuat(turn, rotation)]);
  }
  await setFromView(sets, sets[0]?.[1] ?? 'rotation');
}

export function Viewport() {
  const canvas = useRef(null);
  const labelLayer = useRef(null);
  const scene = useRef(null);
  const near = useRef({ rows: [], few: false }); // the scene's rows up close
  const hovered = useRef(-1);
  const pointer = useRef(null); // [x, y] on the canvas while the pointer is over it
  const cameraMoved = useRef(false); // since the scene last told what is near
  const shapesAsked = useRef(0);
  const shownRevision = useRef(-1); // the table's revision the scene shows
  const describeAsked = useRef(0);
  const [view, setViewName] = useState(viewportCamera.peek()?.view ?? 'perspective');
  const [gizmo, setGizmo] = useState('translate');
  const [cursor, setCursor] = useState(null);
  const [failure, setFailure] = useState(null);
  const [ready, setReady] = useState(false);
  const press = useRef(null);
  const [band, setBand] = useState(null); // { x0, y0, x1, y1 } in CSS pixels
  const [hover, setHover] = useState(null); // { row, x, y }
  const hoverFrame = useRef(0);
  const [announce, setAnnounce] = useState('');

  // The scene, made once the three.js chunk is in.
  useEffect(() => {
    let live = true;
    let observer = null;
    import('../viewport/scene.js')
      .then(({ createScene }) => {
        if (!live) return;
        const s = createScene(canvas.current, labelLayer.current, {
          onChange: () => {
            viewportCamera.value = s.cameraState();
            cameraMoved.current = true;
          },
          onMove: moveSelection,
          onTurn: turnSelection,
          canPick: pickable,
          onNear: (rows) => {
            near.current = rows;
            showShapes();
            describe();
            // The camera came to rest under a pointer at rest: what that is
            // over changed.
            if (cameraMoved.current && pointer.current && !press.current) hoverAt(...pointer.current);
            cameraMoved.current = false;
          },
        });
        scene.current = s;
        s.resize();
        showEntities();
        showSelection();
        // Either one tells onChange, which keeps the camera.
        if (viewportCamera.peek()) s.setCameraState(viewportCamera.peek());
        else s.frame([]);
        observer = new ResizeObserver(() => s.resize());
        observer.observe(canvas.current);
        setPointForCopies(pointForCopies);
        setReady(true);
      })
      .catch((err) => live && setFailure(err.message));
    return () => {
      live = false;
      setPointForCopies(null);
      observer?.disconnect();
      scene.current?.dispose();
      scene.current = null;
    };
  }, []);

  function showEntities() {
    const now = revision.peek();
    scene.current?.setEntities(
      table,
      table.classNames.map((name) => rgb(classColor(name))),
      viewRows.value,
      changedRowsSince(shownRevision.current),
    );
    shownRevision.current = now;
  }
  function showSelection() {
    const { rows, main } = selectedRows();
    scene.current?.setSelection(rows, main);
    describe();
  }

  // Shapes for the rows up close (the scene's near set).
  async function showShapes() {
    const s = scene.current;
    const asked = ++shapesAsked.current;
    const { rows } = near.current;
    const details = await detailsOf(rows);
    if (!details || asked !== shapesAsked.current || scene.current !== s) return; // a newer one follows
    s.setShapes(rows, {
      shapes: table.classNames.map(shapeOf),
      colors: table.classNames.map((name) => rgb(classColor(name))),
      details,
    });
  }

  // Reach, links and labels for the primary, the hovered and the selected
  // among those up close (for all of those when few are in view).
  async function describe() {
    const s = scene.current;
    const asked = ++describeAsked.current;
    const { rows, few } = near.current;
    const { rows: chosen, main } = selectedRows();
    const close = new Set(rows);
    const described = new Set([main, hovered.current].filter((row) => row >= 0));
    for (const row of few ? rows : chosen) if (close.has(row)) described.add(row);
    const details = await detailsOf([...described]);
    if (!details || asked !== describeAsked.current || scene.current !== s) return;
    s.describe([...described], details);
  }

  // state/entityDetails.js' details of `rows`, or null when the view or
  // the world went meanwhile (the next change asks again).
  async function detailsOf(rows) {
    if (!scene.current) return null;
    try {
      return await readDetails(rows);
    } catch {
      return null;
    }
  }

  // The entities follow the table, the marks the selection.
  revision.value;
  const picked = selectedIds.value;
  const primary = selectedId.value;
  const shown = viewRows.value;
  useEffect(showEntities, [revision.value, shown]);
  const snapping = snap.value;
  useEffect(() => scene.current?.setSnap(snapping.on ? snapping.step : null), [snapping, ready]);
  useEffect(showSelection, [picked, primary, revision.value]);
  // The entity selected in the list (or by Go to) comes into view.
  useEffect(() => {
    if (table.rowOf.has(primary)) scene.current?.reveal(table.rowOf.get(primary));
  }, [primary]);
  // Rotate only what turns: a primary entity whose class has a quat field.
  const turns = primary !== null && table.rowOf.has(primary) && rotationFieldOf(rowClass(table.rowOf.get(primary))) !== null;
  const mode = gizmo === 'rotate' && turns ? 'rotate' : 'translate';
  // Before the frame that shows the button pressed (an effect waits for
  // that frame): a drag right after E grabs the gizmo the button names.
  useLayoutEffect(() => scene.current?.setGizmo(mode), [mode, ready]);

  function setView(name) {
    scene.current?.setView(name); // its onChange keeps the camera
    setViewName(name);
  }

  function frameSelection() {
    scene.current?.frame(selectedRows().rows);
  }

  function at(event) {
    const r = canvas.current.getBoundingClientRect();
    return [event.clientX - r.left, event.clientY - r.top];
  }

  function onPointerDown(event) {
    // A press on the move gizmo is its drag, Alt+drag an orbit: neither a click.
    if (event.button === 0 && !event.altKey && !scene.current?.onGizmo()) {
      press.current = { at: at(event) };
      canvas.current.setPointerCapture(event.pointerId);
      const row = placing.peek() ? -1 : (scene.current?.pick(...press.current.at) ?? -1);
      if (row >= 0) readAhead(table.ids[row]);
    }
    canvas.current.focus();
  }

  function onPointerUp(event) {
    const start = press.current;
    press.current = null;
    setBand(null);
    if (!start || event.button !== 0 || !scene.current) return;
    const [x, y] = at(event);
    if (Math.hypot(x - start.at[0], y - start.at[1]) > CLICK_PX) {
      selectBand(start.at, [x, y], event.shiftKey || event.ctrlKey || event.metaKey);
      return;
    }
    if (placing.value) {
      placeAt(x, y);
      return;
    }
    const row = scene.current.pick(x, y);
    if (row < 0) {
      if (!event.shiftKey && !event.ctrlKey && !event.metaKey) select(null);
      return;
    }
    const id = table.ids[row];
    if (takeClick(id)) return;
    if (event.ctrlKey || event.metaKey) toggleSelected(id);
    else if (event.shiftKey) addToSelection([id], id);
    else select(id);
  }

  // Selects the entities inside the rubber band from `a` to `b` (added to
  // the selection with Shift or Ctrl/Cmd).
  function selectBand(a, b, adding) {
    const rows = scene.current.rowsIn(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1]));
    const ids = rows.map((row) => table.ids[row]);
    if (adding) addToSelection(ids);
    else setSelection(ids);
  }

  // The entity under the pointer (read ahead: it may be clicked next) and
  // the pointer's point on the grid's plane, once a frame.
  function hoverAt(x, y) {
    cancelAnimationFrame(hoverFrame.current);
    hoverFrame.current = requestAnimationFrame(() => {
      const s = scene.current;
      if (!s) return;
      const point = s.pointAt(x, y);
      setCursor(point ? [point.x, point.y, point.z] : null);
      const row = press.current ? -1 : s.pick(x, y);
      if (row !== hovered.current) {
        hovered.current = row;
        describe();
        if (row >= 0) readAhead(table.ids[row]);
      }
      if (row < 0) {
        setHover(null);
        return;
      }
      setHover({ row, x, y });
    });
  }

  // Where Duplicate and Paste put copies: the grid's point under the
  // pointer (the view's centre when it is elsewhere), on the grid with
  // Snap; across the grid's plane they keep their place.
  function pointForCopies() {
    const [x, y] = pointer.current ?? [canvas.current.clientWidth / 2, canvas.current.clientHeight / 2];
    const point = scene.current?.pointAt(x, y);
    if (!point) return null;
    const out = point.toArray().map(snapPointer);
    out[scene.current.acrossGrid()] = null;
    return out;
  }

  function onPointerMove(event) {
    const [x, y] = at(event);
    pointer.current = [x, y];
    const start = press.current;
    if (start && Math.hypot(x - start.at[0], y - start.at[1]) > CLICK_PX) {
      setBand({ x0: start.at[0], y0: start.at[1], x1: x, y1: y });
    }
    // While a button is held (an orbit, a look, a drag) nothing is hovered.
    if (event.buttons) unhover();
    else hoverAt(x, y);
  }

  function unhover() {
    cancelAnimationFrame(hoverFrame.current);
    if (hovered.current >= 0) {
      hovered.current = -1;
      describe();
    }
    setHover(null);
  }

  function onPointerLeave() {
    pointer.current = null;
    unhover();
    setCursor(null);
  }

  // Selects entity `row` by keyboard and says which it is.
  function selectByKey(row) {
    select(table.ids[row]);
    setAnnounce(`${rowClass(row)} ${table.ids[row]}`);
  }

  // Arrow keys: the nearest entity on screen in that direction from the
  // selected one (from the centre when none is on screen), as on the map.
  function step(dx, dy) {
    const s = scene.current;
    if (!s) return;
    const { rows, xs, ys } = s.onScreen();
    const from = rows.indexOf(table.rowOf.get(selectedId.value) ?? -1);
    const [w, h] = [canvas.current.clientWidth, canvas.current.clientHeight];
    const k =
      from < 0
        ? nearestPoint(xs, ys, rows.length, w / 2, h / 2)
        : nearestInDirection(xs, ys, rows.length, xs[from], ys[from], dx, dy, from);
    if (k >= 0) selectByKey(rows[k]);
    else setAnnounce(`No entity further ${dx < 0 ? 'left' : dx > 0 ? 'right' : dy < 0 ? 'up' : 'down'}`);
  }

  // In place mode: an entity at the grid's point under canvas point (x, y).
  function placeAt(x, y) {
    const point = scene.current?.pointAt(x, y);
    if (point) placeAtPoint(point.toArray());
  }

  const placeAtCentre = () => placeAt(canvas.current.clientWidth / 2, canvas.current.clientHeight / 2);

  function selectNearCentre() {
    const s = scene.current;
    if (!s) return;
    const { rows, xs, ys } = s.onScreen();
    const k = nearestPoint(xs, ys, rows.length, canvas.current.clientWidth / 2, canvas.current.clientHeight / 2);
    if (k >= 0) selectByKey(rows[k]);
  }

  function onKeyDown(event) {
    if (scene.current?.looking) return; // the scene's: W, A, S, D, Q and E fly
    if (selectAllOnKey(event)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const keys = {
      f: frameSelection,
      F: frameSelection,
      i: toggleIsolation,
      I: toggleIsolation,
      Enter: placing.value ? placeAtCentre : selectNearCentre,
      Escape: () => select(null),
      Delete: () => selectedId.value !== null && deleteEntity(),
    };
    let action = keys[event.key];
    if (arrows[event.key]) action = () => step(...arrows[event.key]);
    else if (VIEW_KEYS[event.key]) action = () => setView(VIEW_KEYS[event.key]);
    else if (GIZMO_KEYS[event.key.toLowerCase()]) action = () => setGizmo(GIZMO_KEYS[event.key.toLowerCase()]);
    if (!action) return;
    event.preventDefault();
    action();
  }

  return (
    <section class="pane map-pane" aria-label="3D view">
      <div class="map-tools">
        <div class="views" role="group" aria-label="View">
          {VIEW_NAMES.map(([name, label, key]) => (
            <button
              key={name}
              type="button"
              class="small"
              aria-pressed={view === name ? 'true' : 'false'}
              aria-keyshortcuts={key}
              onClick={() => setView(name)}
            >
              {label}
            </button>
          ))}
        </div>
        <button type="button" class="small" aria-keyshortcuts="F" onClick={frameSelection}>
          Frame
        </button>
        <div class="views" role="group" aria-label="Gizmo">
          <button
            type="button"
            class="small"
            aria-pressed={mode === 'translate' ? 'true' : 'false'}
            aria-keyshortcuts="W"
            onClick={() => setGizmo('translate')}
          >
            Move
          </button>
          <button
            type="button"
            class="small"
            aria-pressed={mode === 'rotate' ? 'true' : 'false'}
            aria-keyshortcuts="E"
            disabled={!turns}
            title={turns ? undefined : 'The selected entity has no rotation (a quat field)'}
            onClick={() => setGizmo('rotate')}
          >
            Rotate
          </button>
        </div>
        <button type="button" class="small" onClick={() => showViewport(false)}>
          2D map
        </button>
        <PlacementTools />
        <PickStatus />
        <Legend />
      </div>
      <div class="map-stage">
        <canvas
          ref={canvas}
          class="map viewport"
          role="img"
          aria-label="3D view of the world"
          aria-describedby="viewport-keys"
          aria-busy={ready ? 'false' : 'true'}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerMove={onPointerMove}
          onPointerLeave={onPointerLeave}
          onContextMenu={(e) => e.preventDefault()}
          onKeyDown={onKeyDown}
        />
        <div class="viewport-labels" ref={labelLayer} aria-hidden="true" />
        <p id="viewport-keys" class="visually-hidden">
          Click picks an entity, Shift adds, Ctrl toggles; a drag from empty space selects what it encloses. Right-drag looks around, with
          W, A, S, D, Q and E to fly; Alt-drag orbits, middle-drag pans, the wheel zooms. F frames the selection; 5, 7, 1 and 3 show the
          Perspective, Top, Front and Side views; W and E put the move or the rotate gizmo on the selection. Arrow keys select the nearest
          entity on screen that way, Enter the one nearest the centre, Escape none, Delete deletes the selection.
        </p>
        <div class="visually-hidden" aria-live="polite">
          {announce}
        </div>
        {band && <RubberBand band={band} />}
        {hover && table.alive[hover.row] && (
          <EntityTooltip hover={hover} size={[canvas.current.clientWidth, canvas.current.clientHeight]} />
        )}
        {failure && (
          <p class="viewport-failure" role="alert">
            The 3D view could not start: {failure}
          </p>
        )}
        {cursor && (
          <div class="map-cursor">{`X ${formatCoordinate(cursor[0], 10)}   Y ${formatCoordinate(cursor[1], 10)}   Z ${formatCoordinate(cursor[2], 10)}`}</div>
        )}
      </div>
    </section>
  );
}
