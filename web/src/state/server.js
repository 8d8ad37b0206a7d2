// The page's link to the local server (web/server) that serves a world
// directory: present when the page was opened at the address the server
// printed, which carries the run's token. Only transport here: the world
// in packs (juliet-world's pack), the events saying it changed on disk, and
// what the server wrote into the page for this run.

const TOKEN_HEADER = 'X-Juliet-Token';
// The run's token from the page's address (none outside a page).
const token = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('token');

/** True when the page was opened on a world served by the local server. */
export const servesWorld = () => token !== null;

/**
 * This run's share base (`npm start -- DIR --share-base URL`), which the
 * local server writes into the page as it serves it (a meta tag: no
 * request, and nothing on a static host), or null.
 */
export const runShareBase = () =>
  typeof document === 'undefined' ? null : (document.querySelector('meta[name="juliet-share-base"]')?.content ?? null);

async function request(path, init = {}) {
  const response = await fetch(path, { ...init, headers: { ...init.headers, [TOKEN_HEADER]: token }, cache: 'no-store' });
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new Error(`the local server answered ${response.status}${text ? `: ${text}` : ''}`);
  }
  return response.arrayBuffer();
}

/** How to fetch every file of the world, packed, with { name, seq }: the
 * engine worker fetches it, to read the files as they arrive. */
export const worldRequest = () => ({ url: new URL('/api/world', location.href).href, headers: { [TOKEN_HEADER]: token } });

/** The files changed on disk since version `since`, packed, with { seq }. */
export const fetchChanges = (since) => request(`/api/changes?since=${since}`);

/** Sends a pack of changed files; resolves with the answer pack. */
export const postSave = (pack) =>
  request('/api/save', { method: 'POST', body: pack, headers: { 'Content-Type': 'application/octet-stream' } });

/**
 * Calls onVersion(seq) whenever the world on disk reaches a new version
 * (and once on connecting). Returns a function that stops it.
 */
export function watchVersions(onVersion) {
  const events = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  events.onmessage = (event) => {
    const { seq } = JSON.parse(event.data);
    onVersion(seq);
  };
  return () => events.close();
}
