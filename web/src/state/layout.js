// The widths of the panes beside the map (the entity list on the left, the
// inspector on the right), which the splitters between them change. The map
// takes what is left, and keeps at least MIN_MAP pixels.
import { computed, signal } from '@preact/signals';

export const MIN_PANE = 220;
export const MIN_MAP = 280;
// The width of the panes' row, splitters and padding included (measured).
export const rowWidth = signal(0);
// Splitters and padding in that row.
const CHROME = 2 * 10 + 16;

function initialWidths() {
  const w = typeof window === 'undefined' ? 1440 : window.innerWidth;
  const clamp = (v, lo, hi) => Math.round(Math.min(Math.max(v, lo), hi));
  return { list: clamp(w * 0.25, 300, 370), inspector: clamp(w * 0.22, 270, 330) };
}

export const paneWidths = signal(initialWidths());

/** The widest pane `which` ('list' | 'inspector') can be beside the other. */
export function maxWidth(which, widths = paneWidths.value, row = rowWidth.value) {
  const other = which === 'list' ? widths.inspector : widths.list;
  return Math.max(MIN_PANE, row - CHROME - other - MIN_MAP);
}

export const limits = computed(() => ({
  list: [MIN_PANE, maxWidth('list')],
  inspector: [MIN_PANE, maxWidth('inspector')],
}));

/** Pane `which` becomes `width` pixels wide, within its limits. */
export function resizePane(which, width) {
  const max = rowWidth.value ? maxWidth(which) : Infinity;
  const next = Math.round(Math.min(Math.max(width, MIN_PANE), max));
  if (next !== paneWidths.value[which]) paneWidths.value = { ...paneWidths.value, [which]: next };
}

/** Both panes within their limits again (after the window was resized). */
export function fitPanes() {
  resizePane('list', paneWidths.value.list);
  resizePane('inspector', paneWidths.value.inspector);
}
