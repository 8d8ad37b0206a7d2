// What the map draws besides each entity's dot, read from the engine: the
// colour and reach of each light and the references between entities.
// Which classes have them is read from their fields, never from their
// names: a light is an entity whose class has a `color` field of type color
// and a `radius` field of type f32 (the sample's Light), a reference is a
// field of type entity_ref. (Names are the table's: lib/names.js.)
import { signal } from '@preact/signals';
import { getEngine } from './engine.js';
import { table } from './table.js';
import { schemas } from './world.js';

// Reading an entity's fields costs the engine about 20 microseconds: above
// this many lights and entities with references the layers are not read
// (the map then shows the selected entity's references only).
export const LAYER_LIMIT = 20000;

// { rows: Int32Array, colors: string[], radii: Float32Array } or null.
export const lights = signal(null);
// Every reference: { from: Int32Array, to: Int32Array } (table rows) or null.
export const links = signal(null);
// True when the world has more than LAYER_LIMIT such entities.
export const layersSkipped = signal(false);

function fieldOf(schema, name, type) {
  return schema?.find((f) => f.name === name && f.type === type);
}

export function isLightClass(className) {
  const schema = schemas.value[className];
  return Boolean(fieldOf(schema, 'color', 'color') && fieldOf(schema, 'radius', 'f32'));
}

/** Names of the entity_ref fields of class `className`. */
export function refFieldNames(className) {
  return (schemas.value[className] ?? []).filter((f) => f.type === 'entity_ref').map((f) => f.name);
}

/** No layers (another world is opening): none of its rows are known yet. */
export function clearLayers() {
  clearTimeout(timer);
  lights.value = null;
  links.value = null;
}

let timer = 0;
let running = false;
let again = false;

// Reads the layers again `delay` ms after the last call (an edit, a drag,
// an opened world), one read at a time.
export function refreshLayers(delay = 250) {
  clearTimeout(timer);
  timer = setTimeout(run, delay);
}

async function run() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  try {
    await read();
  } catch {
    // The world closed or another opened meanwhile: its own read follows.
    lights.value = null;
    links.value = null;
  } finally {
    running = false;
    if (again) {
      again = false;
      refreshLayers(0);
    }
  }
}

async function read() {
  const kinds = table.classNames.map((name) => ({ light: isLightClass(name), refs: refFieldNames(name) }));
  const refNames = [...new Set(kinds.flatMap((k) => k.refs))];
  const ids = [];
  for (let row = 0; row < table.size; row++) {
    if (!table.alive[row]) continue;
    const kind = kinds[table.cls[row]];
    if (kind.light || kind.refs.length) ids.push(table.ids[row]);
  }
  layersSkipped.value = ids.length > LAYER_LIMIT;
  if (ids.length === 0 || ids.length > LAYER_LIMIT) {
    lights.value = null;
    links.value = null;
    return;
  }
  const values = await getEngine().values(ids, ['color', 'radius', ...refNames]);
  // Rows as they are now: the table may have changed during the read.
  const lightRows = [];
  const colors = [];
  const radii = [];
  const from = [];
  const to = [];
  ids.forEach((id, i) => {
    const row = table.rowOf.get(id);
    const v = values[i];
    if (row === undefined || v === null) return;
    const kind = kinds[table.cls[row]];
    if (!kind) return;
    if (kind.light) {
      lightRows.push(row);
      colors.push(v[0]);
      radii.push(v[1]);
    }
    for (let k = 2; k < v.length; k++) {
      const target = v[k] ? table.rowOf.get(v[k]) : undefined;
      if (target !== undefined) {
        from.push(row);
        to.push(target);
      }
    }
  });
  lights.value = { rows: Int32Array.from(lightRows), colors, radii: Float32Array.from(radii) };
  links.value = { from: Int32Array.from(from), to: Int32Array.from(to) };
}
