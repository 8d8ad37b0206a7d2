// Copies of entities: Duplicate (new IDs, next to the originals on the 2D
// map, at the point under the pointer in the 3D view), Copy
// (the selected entities onto the system clipboard as text:
// lib/entityClipboard.js, docs/format.md) and Paste (that text into the
// open world, whichever tab or world it came from). Each is one undo step;
// the new entities are selected. The engine worker makes the copies (its
// duplicate and paste), remapping references among them.
import { formatEntities, parseEntities } from '../lib/entityClipboard.js';
import { plural } from '../lib/plural.js';
import { getEngine } from './engine.js';
import { addedEntities } from './edits.js';
import { axes, scale } from './mapView.js';
import { fail, notice } from './messages.js';
import { snap } from './placement.js';
import { selectedLive } from './selection.js';
import { rowClass, table } from './table.js';
import { busy, status } from './world.js';

// How far copies are moved (screen pixels on the map, down and right):
// enough to tell them from the originals.
const OFFSET_PX = 16;

// The offset of copies in world units, on the map's axes, to 2 decimals,
// or a whole number of grid steps with Snap on.
function mapOffset() {
  let d = Math.max(0.01, Math.round((OFFSET_PX / scale.value) * 100) / 100);
  if (snap.value.on) d = Math.max(1, Math.round(d / snap.value.step)) * snap.value.step;
  const [h, v] = axes.value;
  const offset = [0, 0, 0];
  offset[h] = d;
  offset[v] = -d;
  return offset;
}

// Where the view shown puts copies: a function returning [x, y, z] (null
// on an axis they keep), the 3D view's point under the pointer; else null,
// and they go next to their originals.
let pointForCopies = null;

/** The 3D view sets it while shown (and null when it goes). */
export function setPointForCopies(fn) {
  pointForCopies = fn;
}

function placeCopies() {
  const at = pointForCopies?.();
  return at ? { at } : { offset: mapOffset() };
}

function canEdit() {
  return status.value === 'ready' && !busy.value;
}

export async function duplicateSelection() {
  const ids = selectedLive();
  if (ids.length === 0 || !canEdit()) return;
  try {
    const result = await getEngine().duplicate(ids, placeCopies());
    await addedEntities(result, 'duplicate', `Duplicated ${plural(ids.length, 'entity', 'entities')}`);
  } catch (err) {
    fail(`Could not duplicate ${plural(ids.length, 'entity', 'entities')}`, err);
  }
}

const decoder = new TextDecoder();

// The selected entities as clipboard text.
export async function selectionText() {
  const ids = selectedLive();
  if (ids.length === 0) return null;
  const texts = await getEngine().texts(ids);
  return formatEntities(ids.map((id, i) => ({ id, className: rowClass(table.rowOf.get(id)), text: decoder.decode(texts[i]) })));
}

export async function copySelection() {
  if (status.value !== 'ready') return;
  try {
    const text = await selectionText();
    if (text === null) return;
    await navigator.clipboard.writeText(text);
    notice.value = `Copied ${plural(selectedLive().length, 'entity', 'entities')}`;
  } catch (err) {
    fail('Could not copy', err);
  }
}

// Pastes `text` (by default what the system clipboard holds). Text that is
// not entity text, or that the engine refuses, changes nothing: the
// message says why (for the engine, at which line of the text).
export async function paste(text = null) {
  if (!canEdit()) return;
  try {
    text ??= await navigator.clipboard.readText();
  } catch (err) {
    fail('Could not read the clipboard', err);
    return;
  }
  let entries;
  try {
    entries = parseEntities(text);
  } catch (err) {
    fail('Nothing pasted', err);
    return;
  }
  try {
    const result = await getEngine().paste(entries, placeCopies());
    await addedEntities(result, 'paste', `Pasted ${plural(entries.length, 'entity', 'entities')}`);
  } catch (err) {
    fail('Nothing pasted', err);
  }
}
