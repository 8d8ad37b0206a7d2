// The colour of an entity class on the map, in the list and in the legend:
// picked from one palette by a hash of the class name (32-bit FNV-1a), so a
// class has the same colour in every world and every session, whether the
// inspector has seen it before or not. No class is named here.
import { textHash } from './textHash.js';

// Sixteen colours that stand apart on the map's dark background.
const PALETTE = [
  '#e8598a',
  '#57c785',
  '#4dd0e1',
  '#c0ca33',
  '#ff8a3d',
  '#b38cff',
  '#26a69a',
  '#9aa5b1',
  '#3fa7f5',
  '#f48fb1',
  '#7e9cff',
  '#ff5f56',
  '#ffd54f',
  '#a1887f',
  '#81c784',
  '#f5b700',
];

/** "#rrggbb" for class `name`. */
export function classColor(name) {
  return PALETTE[textHash(name) % PALETTE.length];
}
