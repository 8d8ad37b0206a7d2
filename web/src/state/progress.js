// Progress of long work (opening or saving many files): null when idle.
import { signal } from '@preact/signals';

export const progress = signal(null); // { label, done, total }

export function reportProgress(label, done, total) {
  progress.value = { label, done, total };
}

export function endProgress() {
  progress.value = null;
}
