// Sharing a level by URL: the world (unsaved edits included) as snapshot
// text after '#' in a link to the share base (lib/shareBase.js: this run's,
// the world's share_base setting, else this page). Links longer than chat apps keep
// get a warning; past what a browser takes in an address, the snapshot is
// offered as a file instead, which `Open snapshot file` reads back. A link
// that cannot be opened is told in plain words by what is wrong with it (the
// engine's err.reason), the same in the error banner and in Diagnostics.
import { signal } from '@preact/signals';
import { LINK_MAX } from 'juliet-world';
import { chooseShareBase, isLoopback } from '../lib/shareBase.js';
import { getEngine } from './engine.js';
import { errorMessage } from './messages.js';
import { runShareBase } from './server.js';
import { settings, worldName } from './world.js';

export const CHAT_LIMIT = 2000; // characters chat apps keep of a link

// { url, text, length, copied, tooLong, opensAt }, opensAt as whereLinksOpen gives it.
export const shared = signal(null);

/**
 * Where a link made now opens: chooseShareBase's { base, from, ignored },
 * plus onlyHere: the base is this page's own address on this machine, so
 * the link opens for no one else.
 */
export function whereLinksOpen() {
  const chosen = chooseShareBase({
    run: runShareBase(),
    world: settings.peek()?.fields.share_base,
    page: `${location.origin}${location.pathname}`,
  });
  return { ...chosen, onlyHere: chosen.from === 'page' && isLoopback(chosen.base) };
}

export function linkFor(text, base = whereLinksOpen().base) {
  return `${base}#${text}`;
}

export async function share() {
  let text;
  try {
    text = await getEngine().snapshot(); // unsaved edits included
  } catch (err) {
    errorMessage.value = `Could not share the level: ${err.message}`;
    return;
  }
  const opensAt = whereLinksOpen();
  const url = linkFor(text, opensAt.base);
  if (url.length > LINK_MAX) {
    shared.value = { url: null, text, length: url.length, copied: false, tooLong: true, opensAt };
    return;
  }
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard access: the link stays in the panel to copy by hand.
  }
  shared.value = { url, text, length: url.length, copied, tooLong: false, opensAt };
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

// What is wrong with a shared level that could not be opened, by the
// engine's reason (juliet.openSnapshot's err.reason): [title, what to do].
const LINK_PROBLEMS = {
  truncated: [
    'The link was cut off when it was pasted.',
    'Its end is missing, as when a chat app or an email shortens a long link: copy the whole link again.',
  ],
  foreign: ['This is not a Juliet link.', 'What follows "#" in it is not a level shared from Juliet World.'],
  damaged: [
    'The link is damaged.',
    'Some of its characters changed on the way (its data does not check out): copy it again from where it was shared.',
  ],
  version: ['The link was made by another version of Juliet World.', 'This version cannot read it.'],
};

// The shared level that failed to open last, while no world opened since:
// { title, detail } (detail ends with the engine's own message).
export const linkProblem = signal(null);

// A link (or snapshot file) failed to open with `err`: the problem is
// shown in Diagnostics; returns the words for the error banner.
export function brokenLink(err) {
  const [title, advice] = LINK_PROBLEMS[err?.reason] ?? ['The shared level could not be read.', ''];
  const engine = err?.message ?? String(err);
  linkProblem.value = { reason: err?.reason ?? null, title, detail: `${advice}${advice ? ' ' : ''}(${engine})` };
  return `${title} ${advice}`.trim();
}

export function clearLinkProblem() {
  linkProblem.value = null;
}
