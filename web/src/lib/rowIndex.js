// The row of each live entity by its ID, as the entity table keeps it
// (state/table.js): the calls of a Map (get, has, set, delete, size), but an
// open-addressing table of row numbers whose keys are the table's own ID
// strings (ids[row]), made in one pass of the right size. A Map of
// 1,000,000 IDs took 0.6 s before a world showed, growing and hashing again
// as it went.
import { textHash } from './textHash.js';

const EMPTY = 0;
const GONE = -1; // a deleted entry; any other slot holds row + 1

// Slots for n entries: a power of two, at most half of them used.
const slotsFor = (n) => 2 ** Math.ceil(Math.log2(2 * n + 2));

export class RowIndex {
  /** Rows 0 to n - 1 of `ids` (the table's array: ids[row] is the ID of
   * row, and stays the array this index reads), each ID once. */
  constructor(ids, n = ids.length) {
    this._ids = ids;
    this._slots = new Int32Array(slotsFor(n));
    this._deleted = 0;
    for (let row = 0; row < n; row++) this._place(row);
    this.size = n;
  }

  get(id) {
    const slot = this._find(id);
    return slot < 0 ? undefined : this._slots[slot] - 1;
  }

  has(id) {
    return this._find(id) >= 0;
  }

  /** Row `row` is entity `id`'s: ids[row] must be `id`. */
  set(id, row) {
    const slot = this._find(id);
    if (slot >= 0) {
      this._slots[slot] = row + 1;
      return this;
    }
    if (2 * (this.size + this._deleted + 1) > this._slots.length) this._rehash();
    this._place(row);
    this.size++;
    return this;
  }

  delete(id) {
    const slot = this._find(id);
    if (slot < 0) return false;
    this._slots[slot] = GONE;
    this.size--;
    this._deleted++;
    return true;
  }

  // The slot of `id` (anything a Map would be asked: null finds nothing), or -1.
  _find(id) {
    if (typeof id !== 'string') return -1;
    const slots = this._slots;
    const mask = slots.length - 1;
    for (let slot = textHash(id) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot];
      if (held === EMPTY) return -1;
      if (held > 0 && this._ids[held - 1] === id) return slot;
    }
  }

  _place(row) {
    const slots = this._slots;
    const mask = slots.length - 1;
    let slot = textHash(this._ids[row]) & mask;
    while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    slots[slot] = row + 1;
  }

  // Room for twice the live entries, the deleted ones dropped.
  _rehash() {
    const old = this._slots;
    this._slots = new Int32Array(slotsFor(2 * this.size + 1));
    this._deleted = 0;
    for (const held of old) if (held > 0) this._place(held - 1);
  }
}
