// Which view of the level the middle pane shows: the 2D map or the 3D
// viewport, and the 3D camera to put back when the viewport is shown again
// (its scene is made anew each time). Both are remembered per world in this
// browser, with the classes hidden and locked (viewFilter.js) and the
// list's closed subtrees (hierarchy.js), so a world opens again as it was
// last seen.
import { batch, effect, signal } from '@preact/signals';
import { collapsedIds } from './hierarchy.js';
import { hiddenClasses, lockedClasses, setViewFilter } from './viewFilter.js';

export const viewMode = signal('map'); // 'map' | '3d'
export const viewportCamera = signal(null); // the scene's cameraState(), or null: frame the world
export const viewedWorld = signal(0); // counts the worlds opened: the 3D scene is made anew for each

const STORAGE_KEY = 'juliet.views';
const WORLDS_KEPT = 20; // the most recently seen worlds
const KEEP_AFTER_MS = 500; // a camera that moves is written once it rests

let world = null; // the open world's key (open.js's origin key, or its name)
let timer = 0;

function kept() {
  try {
    const all = JSON.parse(localStorage.getItem(STORAGE_KEY));
    return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
  } catch {
    return {}; // storage unavailable, or its text not ours
  }
}

function keepSoon() {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (world === null) return;
    const all = kept();
    delete all[world];
    const names = Object.keys(all).slice(-(WORLDS_KEPT - 1));
    const next = Object.fromEntries(names.map((name) => [name, all[name]]));
    next[world] = {
      mode: viewMode.value,
      camera: viewportCamera.value,
      hidden: [...hiddenClasses.value],
      locked: [...lockedClasses.value],
      collapsed: [...collapsedIds.value],
    };
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // A browser without storage forgets the view at the next load.
    }
  }, KEEP_AFTER_MS);
}

export function showViewport(on) {
  viewMode.value = on ? '3d' : 'map';
}

/** A world was opened (`key`: its name in browser storage): the view it
 * was last seen in, or the 2D map with the world framed. */
export function openedWorld(key) {
  world = key;
  const last = kept()[key];
  batch(() => {
    viewMode.value = last?.mode === '3d' ? '3d' : 'map';
    viewportCamera.value = validCamera(last?.camera) ? last.camera : null;
    setViewFilter({ hidden: names(last?.hidden), locked: names(last?.locked) });
    collapsedIds.value = new Set(names(last?.collapsed));
    viewedWorld.value++;
  });
}

// Whether `c` is a camera the scene can take back (storage may hold
// anything).
function validCamera(c) {
  const vec = (v) => Array.isArray(v) && v.length === 3 && v.every(Number.isFinite);
  const positive = (v) => Number.isFinite(v) && v > 0;
  return !!c && typeof c.view === 'string' && vec(c.position) && vec(c.target) && positive(c.zoom) && positive(c.orthoHeight);
}

// Class names or IDs as kept (storage may hold anything).
const names = (list) => (Array.isArray(list) ? list.filter((n) => typeof n === 'string') : []);

// Every change of these is kept (a moment later) for the open world.
effect(() => {
  viewMode.value;
  viewportCamera.value;
  hiddenClasses.value;
  lockedClasses.value;
  collapsedIds.value;
  if (world !== null) keepSoon();
});
