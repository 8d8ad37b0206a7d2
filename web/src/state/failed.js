// The files of the open world that failed to load: one row each in the
// entity list (its first diagnostic), which can be selected to show what is
// wrong in the inspector. They are left as they are on disk: nothing edits,
// saves or deletes them.
import { batch, computed, signal } from '@preact/signals';
import { select, selectedId } from './selection.js';
import { diagnostics } from './world.js';

// [{ path, diagnostic }] in the order of the diagnostics, one per path.
export const failedFiles = computed(() => {
  const seen = new Map();
  for (const d of diagnostics.value) if (d.failed && d.path && !seen.has(d.path)) seen.set(d.path, d);
  return [...seen].map(([path, diagnostic]) => ({ path, diagnostic }));
});

const selectedPath = signal(null);

// The failed file shown in the inspector: the one selected last, while no
// entity is selected and the file is still failed.
export const shownFailure = computed(() => {
  const path = selectedPath.value;
  if (path === null || selectedId.value !== null) return null;
  return failedFiles.value.find((f) => f.path === path) ?? null;
});

export function selectFailure(path) {
  batch(() => {
    select(null);
    selectedPath.value = path;
  });
}
