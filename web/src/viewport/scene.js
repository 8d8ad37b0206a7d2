// The 3D viewport's scene (three.js, loaded as its own chunk): the entities
// shown as markers in their class's colour, the nearest ones in view as
// shapes with their names (viewport/details.js: level of detail), the
// selection drawn over them with a move or rotate gizmo, a grid in world
// units and an axis gizmo; a perspective camera that looks around, flies,
// orbits, pans and dollies, and orthographic Top, Front and Side cameras.
// It draws on demand (a change, a camera move: at most once a frame), never
// in a loop, in two layers (viewport/layers.js). Picking projects the
// positions to the screen: exact at any count, with no extra render.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { TransformControls } from 'three/addons/controls/TransformControls.js';
import { ViewHelper } from 'three/addons/helpers/ViewHelper.js';
import { createDetails } from './details.js';
import { DETAIL_LIMIT } from '../lib/levelOfDetail.js';
import { createLayers, MARKERS_LAYER } from './layers.js';

// The views, as a level editor names them: where the camera looks from
// (a direction from the target) and which way is up on screen.
const VIEWS = {
  perspective: { from: [1, 0.8, 1], up: [0, 1, 0] },
  top: { from: [0, 1, 0], up: [0, 0, -1] },
  front: { from: [0, 0, 1], up: [0, 1, 0] },
  side: { from: [1, 0, 0], up: [0, 1, 0] },
};

// A marker's size on screen, at any distance: smaller when many are drawn,
// which keeps a crowded level readable and its frames cheap.
const markerPx = (count) => (count > 50_000 ? 3 : count > 10_000 ? 4 : 6);
const SELECTED_PX = 11;
const PICK_PX = 8; // how far from a marker a click still picks it
const LOOK_RAD_PER_PX = 0.004; // turning with the right button held
const FLY_SPEED = 1; // per second, in distances to the point looked at
// Where each fly key moves, in the camera's frame (x right, z back) and
// along world up (y).
const FLY_KEYS = { w: [0, 0, -1], s: [0, 0, 1], a: [-1, 0, 0], d: [1, 0, 0], q: [0, -1, 0], e: [0, 1, 0] };
const BACKGROUND = 0x101418; // the 2D map's, in both themes
const GRID_LINES = 0x2b343e;
const GRID_CELLS = 200; // lines each way at most: the view spans 10 to 100 of them
// Level of detail: the nearest SHAPE_LIMIT entities in view are drawn as
// shapes; when at most DETAIL_LIMIT are in view, each is labelled too.
const SHAPE_LIMIT = 300;
const REST_MS = 200; // the camera is at rest once no button is held and it stayed this long
const ROTATE_SNAP_DEG = 15; // a turn's step with Snap on, as in Godot
// Up to this many places (two a moved marker) an edit draws the level again
// around (layers.redrawAround); past them, anew.
const REDRAW_AROUND_LIMIT = 16;

// A step through n items that visits each once and lands far from the last
// (about n / golden ratio, sharing no factor with n).
function spreadStride(n) {
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  let stride = Math.max(1, Math.floor(n * 0.618));
  while (n > 1 && gcd(stride, n) !== 1) stride++;
  return stride;
}

// The k-th smallest (0-based) of the first n values of `values`, which it
// reorders (quickselect: linear on average, where a sort of 100,000 keys
// held up a frame).
function kthSmallest(values, n, k) {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i++] = values[j];
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k];
}

/**
 * A viewport drawing into `canvas`, its labels into `labelLayer`.
 * `onChange()` is called after the user moved the camera (to remember the
 * view), `onMove([dx, dy, dz])` when a drag of the move gizmo ends (the
 * selection is to move by that much), `onTurn([x, y, z, w])` when a drag
 * of the rotate gizmo ends (the selection is to turn by that quat, about
 * world axes), `onNear({ rows, few })` when the
 * camera came to rest or the entities changed: the rows to draw up close
 * (setShapes), and whether few enough are in view to label them all.
 * `canPick(row)` says whether a click, a band or a key may take an entity.
 */
export function createScene(
  canvas,
  labelLayer,
  { onChange = () => {}, onMove = () => {}, onTurn = () => {}, onNear = () => {}, canPick = () => true } = {},
) {
  // No multisampling: markers are squares, and it would cost every frame.
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.autoClear = false;

  const perspective = new THREE.PerspectiveCamera(50, 1, 0.1, 1e6);
  const ortho = new THREE.OrthographicCamera(-1, 1, 1, -1, -1e6, 1e6);
  let view = 'perspective';
  let camera = perspective;
  let projection = null; // the entities projected (project), till the view or they change
  function forgetProjection() {
    projection = null;
  }
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false;
  controls.screenSpacePanning = true;
  // Left clicks pick (the component's), Alt+left-drag orbits (set per
  // press, below), middle-drag pans; right-drag looks around (below), or
  // pans in the orthographic views.
  controls.mouseButtons = { LEFT: null, MIDDLE: THREE.MOUSE.PAN, RIGHT: null };
  canvas.addEventListener(
    'pointerdown',
    (event) => {
      controls.mouseButtons.LEFT = event.altKey && camera === perspective ? THREE.MOUSE.ROTATE : null;
    },
    { capture: true }, // before the controls' own listener
  );
  // After the camera moved: the grid follows, the view is drawn, the
  // canvas says where the camera is (data-camera, as the 2D map's
  // data-view), and the owner hears of it.
  function moved() {
    forgetProjection();
    placeGrid();
    layers.setMoving(true);
    layers.invalidate();
    draw();
    nearSoon();
    const round = (v) => v.toArray().map((x) => Math.round(x * 100) / 100);
    canvas.dataset.camera = JSON.stringify({ view, position: round(camera.position), target: round(controls.target) });
    onChange();
  }
  controls.addEventListener('change', moved);
  // (It reads the size of the element it is given each frame: it gets the
  // size kept at the last resize.)
  const gizmo = new ViewHelper(camera, {
    get offsetWidth() {
      return canvasSize[0];
    },
    get offsetHeight() {
      return canvasSize[1];
    },
    getBoundingClientRect: () => canvas.getBoundingClientRect(),
  });
  gizmo.location.top = 0; // top right: the cursor's coordinates are at the bottom
  gizmo.location.bottom = null;

  // Markers: one point per entity shown (setEntities).
  const markers = new THREE.Points(
    new THREE.BufferGeometry(),
    new THREE.PointsMaterial({ size: markerPx(0), sizeAttenuation: false, vertexColors: true }),
  );
  markers.frustumCulled = false;
  markers.layers.set(MARKERS_LAYER);
  perspective.layers.enable(MARKERS_LAYER);
  ortho.layers.enable(MARKERS_LAYER);
  const layers = createLayers(renderer, markers, { background: BACKGROUND, again: () => draw() });
  const selection = new THREE.Points(
    new THREE.BufferGeometry(),
    new THREE.PointsMaterial({ size: SELECTED_PX, sizeAttenuation: false, color: 0xffffff, depthTest: false }),
  );
  selection.frustumCulled = false;
  selection.renderOrder = 1;
  const primary = new THREE.Points(
    new THREE.BufferGeometry(),
    new THREE.PointsMaterial({ size: SELECTED_PX + 3, sizeAttenuation: false, color: 0x4ea1ff, depthTest: false }),
  );
  primary.frustumCulled = false;
  primary.renderOrder = 2;
  layers.level.add(markers);
  layers.overlay.add(selection, primary);
  const details = createDetails(layers.overlay, labelLayer);

  // The move or rotate gizmo, on the primary entity: while a move is
  // dragged, the selection's marks follow it; the entities move or turn
  // once it is let go (one edit). The handle starts each drag unturned.
  const handle = new THREE.Object3D();
  layers.overlay.add(handle);
  const mover = new TransformControls(camera, canvas);
  mover.setSize(0.8);
  layers.overlay.add(mover.getHelper());
  // The gizmo hit-tests its handles where the last frame put them: a press
  // after a camera move not yet drawn (F, then a press within the frame,
  // which Firefox delivers) would grab another handle or none. Place them
  // for the camera as it is, before the gizmo's own listeners run.
  const placeHandles = () => mover.getHelper().updateMatrixWorld();
  canvas.addEventListener('pointermove', placeHandles, { capture: true });
  canvas.addEventListener('pointerdown', placeHandles, { capture: true });
  const dragFrom = new THREE.Vector3();
  mover.addEventListener('change', () => draw());
  mover.addEventListener('dragging-changed', ({ value }) => {
    controls.enabled = !value;
    if (value) {
      dragFrom.copy(handle.position);
      handle.quaternion.identity();
      return;
    }
    const delta = handle.position.clone().sub(dragFrom);
    if (delta.lengthSq() > 0) onMove(delta.toArray());
    if (handle.quaternion.w < 1) onTurn(handle.quaternion.toArray());
    handle.quaternion.identity();
  });
  mover.addEventListener('objectChange', () => {
    const delta = handle.position.clone().sub(dragFrom);
    selection.position.copy(delta);
    primary.position.copy(delta);
  });

  // Looking around, as in Unreal and Godot: while the right button is held
  // in the perspective view, the pointer turns the camera where it stands
  // and W/A/S/D fly it (forward, left, back, right), Q/E down and up.
  let looking = null; // the last pointer point while the right button is held
  const flying = new Set(); // fly keys held
  let flyFrame = 0;
  let flyLast = 0;
  canvas.addEventListener('pointerdown', (event) => {
    if (event.button !== 2 || camera !== perspective) return;
    looking = [event.clientX, event.clientY];
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!looking) return;
    turn(event.clientX - looking[0], event.clientY - looking[1]);
    looking = [event.clientX, event.clientY];
  });
  const stopLooking = (event) => {
    if (event.type === 'pointerup' && event.button !== 2) return;
    looking = null;
    flying.clear();
  };
  canvas.addEventListener('pointerup', stopLooking);
  canvas.addEventListener('pointercancel', stopLooking);
  canvas.addEventListener('keydown', (event) => {
    const key = event.key.toLowerCase();
    if (!looking || !(key in FLY_KEYS) || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    flying.add(key);
    if (!flyFrame) {
      flyLast = performance.now();
      flyFrame = requestAnimationFrame(fly);
    }
  });
  canvas.addEventListener('keyup', (event) => flying.delete(event.key.toLowerCase()));

  // Turns the camera in place by (dx, dy) pixels of pointer motion: the
  // point looked at moves round it (right: turn right, down: look down).
  function turn(dx, dy) {
    const offset = controls.target.clone().sub(camera.position);
    const spherical = new THREE.Spherical().setFromVector3(offset);
    spherical.theta -= dx * LOOK_RAD_PER_PX;
    spherical.phi = THREE.MathUtils.clamp(spherical.phi + dy * LOOK_RAD_PER_PX, 0.01, Math.PI - 0.01);
    controls.target.copy(camera.position).add(offset.setFromSpherical(spherical));
    camera.lookAt(controls.target);
    controls.update();
    moved();
  }

  // One frame of flight: the held keys' directions (W/S along the view,
  // A/D sideways, Q/E along world up), as fast as the point looked at is
  // far, per second.
  function fly(now) {
    flyFrame = 0;
    if (!looking || flying.size === 0) return;
    const seconds = Math.min((now - flyLast) / 1000, 0.1);
    flyLast = now;
    const along = new THREE.Vector3();
    const up = new THREE.Vector3();
    for (const key of flying) {
      const [x, y, z] = FLY_KEYS[key];
      along.x += x;
      along.z += z;
      up.y += y;
    }
    const move = along.applyQuaternion(camera.quaternion).add(up);
    move.multiplyScalar(Math.max(camera.position.distanceTo(controls.target), 1) * FLY_SPEED * seconds);
    camera.position.add(move);
    controls.target.add(move);
    controls.update();
    moved();
    flyFrame = requestAnimationFrame(fly);
  }

  let grid = null;
  let rows = { size: 0, pos: new Float32Array(0), alive: new Uint8Array(0) };
  let visible = new Uint8Array(0); // 1 for a row drawn (alive and shown)
  let bounds = new THREE.Box3(new THREE.Vector3(-50, -50, -50), new THREE.Vector3(50, 50, 50));

  // The canvas' size in CSS pixels, read once per resize: reading it in a
  // frame, after the labels moved, would lay the page out again each frame.
  let canvasSize = [1, 1];
  function size() {
    return canvasSize;
  }

  // Draws at the next frame, once however many changes come before it.
  let drawing = 0;
  function draw() {
    drawing ||= requestAnimationFrame(() => {
      drawing = 0;
      const started = performance.now();
      details.update(camera, ...size());
      layers.render(camera);
      gizmo.render(renderer); // in its corner, over the scene
      // The page's own time in the frame (the 2D map's data-draw-ms).
      canvas.dataset.drawMs = (performance.now() - started).toFixed(2);
    });
  }

  function resize() {
    forgetProjection();
    canvasSize = [canvas.clientWidth || 1, canvas.clientHeight || 1];
    const [w, h] = canvasSize;
    renderer.setSize(w, h, false);
    const buffer = renderer.getDrawingBufferSize(new THREE.Vector2());
    layers.setSize(buffer.x, buffer.y);
    perspective.aspect = w / h;
    perspective.updateProjectionMatrix();
    fitOrtho();
    draw();
  }

  // The orthographic camera's frustum keeps its height in world units
  // (ortho.zoom scales it) and follows the canvas' aspect.
  let orthoHeight = 100;
  function fitOrtho() {
    const [w, h] = size();
    const half = orthoHeight / 2;
    ortho.left = (-half * w) / h;
    ortho.right = (half * w) / h;
    ortho.top = half;
    ortho.bottom = -half;
    ortho.updateProjectionMatrix();
  }

  /** Shows the rows `shown` (an Int32Array of table rows: the list's filter
   * applied) of the table's entities: `colors` an [r, g, b] (0..1) per class
   * index. Only those are drawn and picked. `changed`: the rows changed
   * since the last call if known (else null: any may have). */
  function setEntities(table, colors, shown, changed = null) {
    if (table === rows && shown === drawnShown && moveMarkers(changed)) return;
    rows = table;
    drawnShown = shown;
    forgetProjection();
    order = new Int32Array(shown.length);
    orderClass = new Uint8Array(shown.length);
    markerOf = new Int32Array(table.size).fill(-1);
    const position = new Float32Array(shown.length * 3);
    const color = new Float32Array(shown.length * 3);
    visible = new Uint8Array(table.size);
    bounds = new THREE.Box3();
    const p = new THREE.Vector3();
    // In an order spread over the level: any first part of the markers
    // (what a moving camera draws on a slow renderer) samples all of it.
    const stride = spreadStride(shown.length);
    for (let i = 0; i < shown.length; i++) {
      const row = shown[(i * stride) % shown.length];
      order[i] = row;
      markerOf[row] = i;
      orderClass[i] = table.cls[row];
      visible[row] = 1;
      color.set(colors[table.cls[row]] ?? [1, 1, 1], i * 3);
      position.set(table.pos.subarray(row * 3, row * 3 + 3), i * 3);
      bounds.expandByPoint(p.fromArray(table.pos, row * 3));
    }
    if (bounds.isEmpty()) bounds.set(new THREE.Vector3(-50, -50, -50), new THREE.Vector3(50, 50, 50));
    markers.material.size = markerPx(shown.length);
    canvas.dataset.shown = String(shown.length); // the entities drawn
    markers.geometry.dispose();
    markers.geometry = new THREE.BufferGeometry();
    markers.geometry.setAttribute('position', new THREE.BufferAttribute(position, 3));
    markers.geometry.setAttribute('color', new THREE.BufferAttribute(color, 3));
    placeGrid();
    layers.invalidate();
    draw();
    nearSoon();
  }
  let drawnShown = null; // the `shown` the markers were made from
  let order = new Int32Array(0); // marker i shows table row order[i]
  let orderClass = new Uint8Array(0); // of that row's class index
  let markerOf = new Int32Array(0); // the marker of each row, -1 if not shown

  // After an edit: the markers of the rows `changed` (null: of every row)
  // moved to where the table has them, only those that moved sent to the
  // renderer again, the level drawn again only if any did. False (and the
  // markers are to be made anew) if an entity changed class.
  function moveMarkers(changed) {
    const attribute = markers.geometry.attributes.position;
    if (!attribute || attribute.count !== order.length) return false;
    const at = attribute.array;
    const pos = rows.pos;
    const p = new THREE.Vector3();
    let first = order.length;
    let last = -1;
    const count = changed ? changed.length : order.length;
    let around = []; // the moved markers' old and new places, while few
    const moved = []; // their rows, while few
    for (let j = 0; j < count; j++) {
      const i = changed ? markerOf[changed[j]] : j;
      if (i < 0 || i === undefined) continue;
      const row = order[i];
      if (rows.cls[row] !== orderClass[i]) return false;
      const k = i * 3;
      const r = row * 3;
      if (at[k] === pos[r] && at[k + 1] === pos[r + 1] && at[k + 2] === pos[r + 2]) continue;
      if (around && around.length < REDRAW_AROUND_LIMIT) {
        around.push(new THREE.Vector3().fromArray(at, k), new THREE.Vector3().fromArray(pos, r));
        moved.push(row);
      } else around = null;
      at.set(pos.subarray(r, r + 3), k);
      bounds.expandByPoint(p.fromArray(pos, r));
      first = Math.min(first, i);
      last = Math.max(last, i);
    }
    if (last >= 0) {
      if (around) reproject(moved);
      else forgetProjection();
      attribute.clearUpdateRanges();
      attribute.addUpdateRange(first * 3, (last - first + 1) * 3);
      attribute.needsUpdate = true;
      const anew = placeGrid() || !around || !redrawAround(around);
      if (anew) layers.invalidate();
      canvas.dataset.level = anew ? 'anew' : 'around'; // how the last edit was drawn
      draw();
      nearSoon();
    } else if (nearRows) onNear(nearRows); // the same rows, their shapes read again
    return true;
  }

  // The level drawn again around `places` (world points) only, with the
  // markers that reach into them (layers.redrawAround).
  function redrawAround(places) {
    const [w, h] = size();
    const reach = markers.material.size + 1; // from a place to the middle of a marker reaching into its square, in CSS pixels
    const spots = [];
    for (const place of places) {
      const p = place.clone().project(camera);
      if (Math.abs(p.x) <= 1.1 && Math.abs(p.y) <= 1.1 && Math.abs(p.z) <= 1) spots.push([((p.x + 1) / 2) * w, ((1 - p.y) / 2) * h]);
    }
    const { rows: seen, sx, sy, n } = projected();
    const near = [];
    // (Plain loops: this runs over every marker in view within an edit's task.)
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < spots.length; k++) {
        if (Math.abs(sx[i] - spots[k][0]) <= reach && Math.abs(sy[i] - spots[k][1]) <= reach) {
          near.push(markerOf[seen[i]]);
          break;
        }
      }
    }
    const { position, color } = markers.geometry.attributes;
    const geometry = new THREE.BufferGeometry();
    const pick = (attribute) =>
      new THREE.BufferAttribute(new Float32Array(near.flatMap((i) => [...attribute.array.subarray(i * 3, i * 3 + 3)])), 3);
    geometry.setAttribute('position', pick(position));
    geometry.setAttribute('color', pick(color));
    const few = new THREE.Points(geometry, markers.material);
    few.frustumCulled = false;
    few.layers.set(MARKERS_LAYER);
    const done = layers.redrawAround(spots, camera, few);
    geometry.dispose();
    return done;
  }

  // The rows up close, told once the camera rests: those in view, or the
  // nearest SHAPE_LIMIT of them. Never during a drag, whose frames stay
  // cheap however slowly it goes.
  let nearTimer = 0;
  let held = 0; // buttons held on the canvas
  canvas.addEventListener('pointerdown', (event) => (held = event.buttons));
  canvas.addEventListener('pointerup', (event) => {
    held = event.buttons;
    if (!held) nearSoon();
  });
  canvas.addEventListener('pointercancel', () => (held = 0));
  function nearSoon() {
    clearTimeout(nearTimer);
    nearTimer = held ? 0 : setTimeout(rest, REST_MS);
  }
  let nearRows = null; // what near() told last
  function rest() {
    layers.setMoving(false);
    draw();
    onNear((nearRows = near()));
  }
  function near() {
    const [w, h] = size();
    const inView = new Int32Array(rows.size);
    // Nearness: the depth in perspective, the distance from the middle of
    // the view in the flat views.
    const keys = new Float32Array(rows.size);
    let n = 0;
    project((row, sx, sy, cz) => {
      if (sx < 0 || sy < 0 || sx > w || sy > h) return;
      inView[n] = row;
      keys[n++] = camera === perspective ? cz : (sx - w / 2) ** 2 + (sy - h / 2) ** 2;
    });
    const few = n <= DETAIL_LIMIT;
    if (n <= SHAPE_LIMIT) return { rows: Array.from(inView.subarray(0, n)), few };
    const limit = kthSmallest(keys.slice(0, n), n, SHAPE_LIMIT - 1);
    const close = [];
    for (let i = 0; i < n && close.length < SHAPE_LIMIT; i++) if (keys[i] <= limit) close.push(inView[i]);
    return { rows: close, few };
  }

  // What is drawn up close, told as data-camera tells where from.
  const drawnUpClose = { box: 0, bulb: 0, marker: 0, labels: 0, segments: 0 };
  function tellDrawn(counts) {
    Object.assign(drawnUpClose, counts);
    canvas.dataset.shapes = JSON.stringify(drawnUpClose);
    draw();
  }
  const shown = (row) => visible[row] === 1;

  /** Draws `close` (table rows) as shapes from `details` (a Map row ->
   * state/entityDetails.js' details); `shapes` and `colors` per class index. */
  function setShapes(close, { shapes, colors, details: read }) {
    tellDrawn(details.showShapes(rows, close.filter(shown), { shapes, colors, details: read }));
  }

  /** Draws the reach, links and labels of `described` (table rows) from
   * `details` (as setShapes'). */
  function describe(described, read) {
    tellDrawn(details.describe(rows, described.filter(shown), read));
  }

  // Positions of `list` (table rows) as a geometry.
  function pointsOf(list) {
    const position = new Float32Array(list.length * 3);
    list.forEach((row, i) => position.set(rows.pos.subarray(row * 3, row * 3 + 3), i * 3));
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(position, 3));
    return geometry;
  }

  /** Marks the selected rows, `main` (a row or -1) the primary one, which
   * carries the move gizmo. */
  function setSelection(list, main) {
    selection.geometry.dispose();
    selection.geometry = pointsOf(list.filter((row) => visible[row]));
    primary.geometry.dispose();
    primary.geometry = pointsOf(main >= 0 && visible[main] ? [main] : []);
    selection.position.set(0, 0, 0);
    primary.position.set(0, 0, 0);
    if (main >= 0 && visible[main]) {
      handle.position.fromArray(rows.pos, main * 3);
      mover.attach(handle);
    } else {
      mover.detach();
    }
    draw();
  }

  // Every shader the view may need, compiled while it opens (drawn into
  // one pixel, drawn over by the first frame): the first selection would
  // otherwise wait for the gizmo's, 200 to 400 ms with a CPU renderer.
  function warmUp() {
    const points = [markers, selection, primary];
    const kept = points.map((p) => p.geometry);
    const one = new THREE.BufferGeometry();
    one.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0], 3));
    one.setAttribute('color', new THREE.Float32BufferAttribute([1, 1, 1], 3));
    for (const p of points) p.geometry = one;
    renderer.setScissorTest(true);
    renderer.setScissor(0, 0, 1, 1);
    placeGrid();
    // The gizmo in front of the camera (where it first looks, down -Z),
    // or nothing of it would be drawn.
    handle.position.set(0, 0, -10);
    mover.attach(handle);
    // (As if a handle were dragged: the gizmo's drag lines show.)
    Object.assign(mover, { axis: 'XYZ', dragging: true });
    for (const mode of ['rotate', 'translate']) {
      mover.setMode(mode);
      details.warmUp(() => {
        layers.invalidate();
        layers.render(camera);
        gizmo.render(renderer);
      });
    }
    Object.assign(mover, { axis: null, dragging: false });
    mover.detach();
    handle.position.set(0, 0, 0);
    renderer.setScissorTest(false);
    points.forEach((p, i) => (p.geometry = kept[i]));
    one.dispose();
    layers.invalidate();
  }

  /** Moves snap to multiples of `step` world units, turns to ROTATE_SNAP
   * (null: both free). */
  function setSnap(step) {
    mover.setTranslationSnap(step);
    mover.setRotationSnap(step === null ? null : THREE.MathUtils.degToRad(ROTATE_SNAP_DEG));
  }

  /** The gizmo on the selection: 'translate' (move) or 'rotate'. */
  function setGizmo(mode) {
    mover.setMode(mode);
    draw();
  }

  /** Whether a press at the current pointer is on the move gizmo's handles. */
  function onGizmo() {
    return mover.axis !== null || mover.dragging;
  }

  // A grid in world units under the level (in the view's plane for Front
  // and Side) around the point looked at, its lines at a round step of what
  // the view spans (1, 10, 100 ... units as it zooms), made anew only when
  // the step or the cell looked at changes. Whether it was.
  let gridKey = '';
  function placeGrid() {
    const span =
      camera === ortho
        ? (ortho.top - ortho.bottom) / ortho.zoom
        : camera.position.distanceTo(controls.target) * 2 * Math.tan(THREE.MathUtils.degToRad(perspective.fov) / 2);
    const step = 10 ** Math.floor(Math.log10(Math.max(span, 1e-3) / 10));
    const snap = (v) => Math.round(v / step) * step;
    const t = controls.target;
    const key = `${view} ${step} ${snap(t.x)} ${snap(t.y)} ${snap(t.z)} ${bounds.min.toArray()}`;
    if (key === gridKey) return false;
    gridKey = key;
    if (grid) {
      layers.level.remove(grid);
      grid.geometry.dispose();
    }
    // (Its middle line in the same colour: it is no axis, only the point looked at.)
    // Three views wide, or the level and a half: no farther, where lines
    // would crowd into a grey plane.
    const extent = bounds.getSize(new THREE.Vector3());
    const cells = Math.min(GRID_CELLS, Math.ceil(Math.max(span * 3, Math.max(extent.x, extent.y, extent.z) * 1.5) / step));
    grid = new THREE.GridHelper(cells * step, cells, GRID_LINES, GRID_LINES);
    grid.frustumCulled = false; // it spans the view; and warmUp draws it wherever it is
    if (view === 'front') {
      grid.rotation.x = Math.PI / 2;
      grid.position.set(snap(t.x), snap(t.y), bounds.min.z);
    } else if (view === 'side') {
      grid.rotation.z = Math.PI / 2;
      grid.position.set(bounds.min.x, snap(t.y), snap(t.z));
    } else {
      grid.position.set(snap(t.x), bounds.min.y, snap(t.z));
    }
    layers.level.add(grid);
    return true;
  }

  // Makes view `name`'s camera the one drawn and driven.
  function useCamera(name) {
    view = name;
    camera = name === 'perspective' ? perspective : ortho;
    controls.object = camera;
    controls.mouseButtons.RIGHT = camera === ortho ? THREE.MOUSE.PAN : null;
    gizmo.camera = camera;
    mover.camera = camera;
  }

  /** Shows view `name` (a key of VIEWS), looking at the same point. */
  function setView(name) {
    const target = controls.target.clone();
    useCamera(name);
    placeGrid();
    look(target, distanceFor(bounds.getBoundingSphere(new THREE.Sphere()).radius));
  }

  // The camera distance at which a sphere of `radius` fills the view.
  function distanceFor(radius) {
    const fov = THREE.MathUtils.degToRad(perspective.fov);
    const [w, h] = size();
    const fit = Math.min(Math.sin(fov / 2), Math.sin(Math.atan(Math.tan(fov / 2) * (w / h))));
    return Math.max(radius, 0.5) / fit;
  }

  // Points the camera at `target` from the view's direction at `distance`.
  function look(target, distance) {
    const { from, up } = VIEWS[view];
    const direction = new THREE.Vector3(...from).normalize();
    camera.up.set(...up);
    camera.position.copy(target).addScaledVector(direction, distance);
    camera.lookAt(target);
    controls.target.copy(target);
    if (camera === ortho) {
      orthoHeight = distance * 2 * Math.tan(THREE.MathUtils.degToRad(perspective.fov) / 2);
      ortho.zoom = 1;
      fitOrtho();
    }
    controls.update();
    moved();
  }

  /** Frames `list` (table rows; empty: every entity). */
  function frame(list) {
    let box = bounds;
    if (list.length) {
      box = new THREE.Box3();
      const p = new THREE.Vector3();
      for (const row of list) if (visible[row]) box.expandByPoint(p.fromArray(rows.pos, row * 3));
      if (box.isEmpty()) box = bounds;
    }
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    // A lone entity is framed with some room around it.
    look(sphere.center, distanceFor(Math.max(sphere.radius * 1.15, list.length === 1 ? 8 : 1)));
  }

  /** Brings entity `row` into view if it is out of it (off the canvas,
   * behind the camera or past its depth range): the camera moves across,
   * keeping its direction and distance, until the entity is in the middle. */
  function reveal(row) {
    if (!rows || !visible[row]) return;
    const p = new THREE.Vector3().fromArray(rows.pos, row * 3);
    camera.updateMatrixWorld();
    const ahead = p.clone().applyMatrix4(camera.matrixWorldInverse).z < 0;
    const at = p.clone().project(camera);
    if (ahead && Math.abs(at.x) <= 1 && Math.abs(at.y) <= 1 && Math.abs(at.z) <= 1) return;
    const shift = p.sub(controls.target);
    camera.position.add(shift);
    controls.target.add(shift);
    controls.update();
    moved();
  }

  // The drawn entities in front of the camera and within its depth range,
  // { rows, sx, sy, cz, n }: their canvas points and depths (-1 near .. 1
  // far). Plain arithmetic over the positions, no render, done again only
  // once the camera, the canvas or the entities changed: a click after the
  // camera rested reads what the rest projected.
  function projected() {
    return (projection ??= projectAll());
  }
  // Calls visit(row, sx, sy, depth) for each of them.
  function project(visit) {
    const { rows: seen, sx, sy, cz, n } = projected();
    for (let i = 0; i < n; i++) visit(seen[i], sx[i], sy[i], cz[i]);
  }
  function projectAll() {
    const out = {
      rows: new Int32Array(rows.size),
      sx: new Float32Array(rows.size),
      sy: new Float32Array(rows.size),
      cz: new Float32Array(rows.size),
      n: 0,
    };
    const into = projector(out);
    for (let row = 0; row < rows.size; row++) into(row);
    return out;
  }
  // A function adding row to the projection `out` if it is in view.
  function projector(out) {
    const [w, h] = size();
    camera.updateMatrixWorld();
    const m = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).elements;
    const pos = rows.pos;
    return (row) => {
      if (!visible[row]) return;
      const px = pos[row * 3];
      const py = pos[row * 3 + 1];
      const pz = pos[row * 3 + 2];
      const cw = m[3] * px + m[7] * py + m[11] * pz + m[15];
      if (cw <= 0) return; // behind the camera
      const z = (m[2] * px + m[6] * py + m[10] * pz + m[14]) / cw;
      if (z < -1 || z > 1) return;
      const i = out.n++;
      out.rows[i] = row;
      out.sx[i] = ((m[0] * px + m[4] * py + m[8] * pz + m[12]) / cw + 1) * 0.5 * w;
      out.sy[i] = (1 - (m[1] * px + m[5] * py + m[9] * pz + m[13]) / cw) * 0.5 * h;
      out.cz[i] = z;
    };
  }
  // The projection kept after a few entities moved: each one's entry taken
  // out (the last in its place) and added again where it is now, instead
  // of every position projected again within the edit's task.
  function reproject(moved) {
    const out = projection;
    if (!out) return;
    const into = projector(out);
    for (const row of moved) {
      const i = out.rows.indexOf(row);
      if (i >= 0 && i < out.n) {
        const last = --out.n;
        out.rows[i] = out.rows[last];
        out.sx[i] = out.sx[last];
        out.sy[i] = out.sy[last];
        out.cz[i] = out.cz[last];
      }
      into(row);
    }
  }

  /** The row of the entity nearest to canvas point (x, y) within PICK_PX, else -1. */
  function pick(x, y) {
    // A plain loop over the projection (a hover runs it each frame): the
    // distance first, canPick only for the few within reach.
    const { rows: seen, sx, sy, cz, n } = projected();
    let best = -1;
    let bestD = PICK_PX * PICK_PX;
    let bestZ = Infinity;
    for (let i = 0; i < n; i++) {
      const dx = sx[i] - x;
      const dy = sy[i] - y;
      const d = dx * dx + dy * dy;
      // The nearest on screen; of markers drawn over each other, the front one.
      if ((d < bestD - 1 || (d <= bestD + 1 && cz[i] < bestZ)) && canPick(seen[i])) {
        best = seen[i];
        bestD = d;
        bestZ = cz[i];
      }
    }
    return best;
  }

  /** The rows of the entities drawn inside the canvas rectangle (x0, y0)-(x1, y1). */
  function rowsIn(x0, y0, x1, y1) {
    const out = [];
    project((row, sx, sy) => {
      if (sx >= x0 && sx <= x1 && sy >= y0 && sy <= y1 && canPick(row)) out.push(row);
    });
    return out;
  }

  /** The drawn entities on the canvas: { rows, xs, ys }, their table rows
   * and canvas points (y down). */
  function onScreen() {
    const [w, h] = size();
    const rows = [];
    const xs = [];
    const ys = [];
    project((row, sx, sy) => {
      if (sx < 0 || sy < 0 || sx > w || sy > h || !canPick(row)) return;
      rows.push(row);
      xs.push(sx);
      ys.push(sy);
    });
    return { rows, xs, ys };
  }

  // The axis across the grid's plane (0 X, 1 Y, 2 Z).
  const acrossGrid = () => ({ front: 2, side: 0 })[view] ?? 1;

  /** The world point under canvas point (x, y) on the grid's plane, or null. */
  function pointAt(x, y) {
    const [w, h] = size();
    const ray = new THREE.Raycaster();
    ray.setFromCamera(new THREE.Vector2((x / w) * 2 - 1, 1 - (y / h) * 2), camera);
    const normal = new THREE.Vector3().setComponent(acrossGrid(), 1);
    const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, grid.position);
    return ray.ray.intersectPlane(plane, new THREE.Vector3());
  }

  /** The camera as it can be kept: { view, target, position, zoom }. */
  function cameraState() {
    return { view, target: controls.target.toArray(), position: camera.position.toArray(), zoom: camera.zoom, orthoHeight };
  }

  /** Puts back a camera from cameraState(). */
  function setCameraState(state) {
    useCamera(state.view in VIEWS ? state.view : 'perspective');
    camera.up.set(...VIEWS[view].up);
    camera.position.fromArray(state.position);
    orthoHeight = state.orthoHeight;
    camera.zoom = state.zoom;
    fitOrtho();
    perspective.updateProjectionMatrix();
    controls.target.fromArray(state.target);
    controls.update();
    moved();
  }

  function dispose() {
    cancelAnimationFrame(drawing);
    cancelAnimationFrame(flyFrame);
    clearTimeout(nearTimer);
    details.dispose();
    layers.dispose();
    mover.dispose();
    controls.dispose();
    gizmo.dispose();
    for (const object of [markers, selection, primary]) {
      object.geometry.dispose();
      object.material.dispose();
    }
    grid?.geometry.dispose();
    renderer.dispose();
  }

  // What the page prints with its figures: the renderer the GPU driver names.
  function rendererName() {
    const gl = renderer.getContext();
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  }

  warmUp();

  return {
    setEntities,
    reveal,
    setShapes,
    describe,
    setSelection,
    setSnap,
    setGizmo,
    onGizmo,
    setView,
    frame,
    pick,
    rowsIn,
    onScreen,
    pointAt,
    resize,
    draw,
    cameraState,
    setCameraState,
    rendererName,
    get view() {
      return view;
    },
    /** Whether the right button is held: keys fly the camera meanwhile. */
    get looking() {
      return looking !== null;
    },
    acrossGrid,
    dispose,
  };
}
