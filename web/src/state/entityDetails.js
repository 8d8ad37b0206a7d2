// What the 3D view draws of an entity besides its place and name (the
// table's), read from the engine for the few entities it shows up close:
// its rotation, a light's colour and reach, and the rows its references
// point at. Which classes have them is read from their fields
// (state/mapLayers.js says how), never from their names; a class's rotation
// is its first quat field.
import { getEngine } from './engine.js';
import { isLightClass, refFieldNames } from './mapLayers.js';
import { revision, table } from './table.js';
import { schemas } from './world.js';

/** How class `className` is drawn: 'bulb' (a light), 'box' (a class with a
 * mesh field) or 'marker'. */
export function shapeOf(className) {
  if (isLightClass(className)) return 'bulb';
  return (schemas.value[className] ?? []).some((f) => /mesh/.test(f.name)) ? 'box' : 'marker';
}

/** The quat field that turns an entity of class `className`, or null. */
export function rotationFieldOf(className) {
  return (schemas.value[className] ?? []).find((f) => f.type === 'quat')?.name ?? null;
}

// Per class: the fields read and where each lands in a detail.
function plan(className) {
  const light = isLightClass(className);
  return {
    rotation: rotationFieldOf(className),
    color: light ? 'color' : null,
    radius: light ? 'radius' : null,
    refs: refFieldNames(className),
  };
}

// Details read, by ID, valid until the next change in the world.
const cache = new Map();
let cacheRevision = -1;

/**
 * The details of the entities in `rows` (table rows): a Map from row to
 * { rotation, color, radius, refs } (rotation [x, y, z, w] or null, color
 * '#rrggbb' and radius for a light, refs the rows referenced). Entities read
 * since the last change are not asked again.
 */
export async function readDetails(rows) {
  if (cacheRevision !== revision.peek()) {
    cache.clear();
    cacheRevision = revision.peek();
  }
  const asked = revision.peek();
  const plans = table.classNames.map(plan);
  const missing = rows.filter((row) => table.alive[row] && !cache.has(table.ids[row]));
  if (missing.length) {
    const names = [...new Set(plans.flatMap((p) => [p.rotation, p.color, p.radius, ...p.refs]).filter(Boolean))];
    const ids = missing.map((row) => table.ids[row]);
    const values = await getEngine().values(ids, names);
    // Answers about a world that changed meanwhile are not kept.
    if (asked === revision.peek()) {
      ids.forEach((id, i) => {
        const v = values[i];
        if (!v) return;
        const field = (name) => (name ? v[names.indexOf(name)] : undefined);
        const p = plans[table.cls[table.rowOf.get(id)]];
        cache.set(id, {
          rotation: field(p.rotation) ?? null,
          color: field(p.color) ?? null,
          radius: field(p.radius) ?? null,
          refIds: p.refs.map(field).filter(Boolean),
        });
      });
    }
  }
  const out = new Map();
  for (const row of rows) {
    const detail = cache.get(table.ids[row]);
    if (!detail) continue;
    const refs = detail.refIds.map((id) => table.rowOf.get(id)).filter((r) => r !== undefined);
    out.set(row, { ...detail, refs });
  }
  return out;
}
