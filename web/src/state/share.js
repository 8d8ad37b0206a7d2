// Sharing a level by URL: the world (unsaved edits included) as snapshot
// text after '#' in a link to this page. Links longer than chat apps keep
// get a warning; past what a browser takes in an address, the snapshot is
// offered as a file instead, which `Open snapshot file` reads back.
import { signal } from '@preact/signals';
import { getEngine } from './engine.js';
import { errorMessage } from './messages.js';
import { worldName } from './world.js';

export const CHAT_LIMIT = 2000; // characters chat apps keep of a link
export const URL_LIMIT = 1_000_000; // about the most a browser takes in an address

export const shared = signal(null); // { url, text, length, copied, tooLong }

export function linkFor(text) {
  return `${location.origin}${location.pathname}#${text}`;
}

export async function share() {
  let text;
  try {
    text = await getEngine().snapshot(); // unsaved edits included
  } catch (err) {
    errorMessage.value = `Could not share the level: ${err.message}`;
    return;
  }
  const url = linkFor(text);
  if (url.length > URL_LIMIT) {
    shared.value = { url: null, text, length: url.length, copied: false, tooLong: true };
    return;
  }
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard access: the link stays in the panel to copy by hand.
  }
  shared.value = { url, text, length: url.length, copied, tooLong: false };
}

export function downloadSnapshot() {
  const s = shared.value;
  if (!s) return;
  const blob = new Blob([s.text], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${worldName.value || 'world'}.snapshot.txt`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

export function closeShare() {
  shared.value = null;
}
