// Entry point: starts the engine the models call, wires the models that follow the open world's events (undo
// history, unsaved work kept in browser storage, see state/keep.js), renders
// the inspector, asks before leaving with unsaved changes, and opens the
// world the local server serves (an address with its token), else the level
// shared in the address (after '#'), else the last world with unsaved work
// kept in this browser, else the sample world (`?open=none` starts empty).
// A change link in the address applies over the world opened.
import { render } from 'preact';
import { App } from './components/App.jsx';
import { createEngine } from './engine/client.js';
import { getEngine, setEngine } from './state/engine.js';
import { on } from './state/events.js';
import { clearHistory, forgetEntity, record } from './state/history.js';
import { forgetKept, keepNowIfWaiting, keepSoon, restoreKept, startUp } from './state/keep.js';
import { openChangeLink } from './state/changeLink.js';
import { openServerWorld, openSnapshotText } from './state/open.js';
import { pending } from './state/pending.js';
import { reportProgress } from './state/progress.js';
import { stopPlacing } from './state/placement.js';
import { servesWorld } from './state/server.js';
import { worldName } from './state/world.js';
import { openedWorld } from './state/viewMode.js';

// The page's one engine, in a worker; its reports of long work go to the
// progress bar.
setEngine(createEngine({ onProgress: ({ label, done, total }) => reportProgress(label, done, total) }));

// The world model imports neither of them: they listen. A world opened shows
// its kept work (restoreKept) before its open counts as done.
on('opened', () => clearHistory());
on('opened', ({ key }) => restoreKept(key));
// Place mode is for the world it was chosen in.
on('opened', () => stopPlacing());
// The view (2D or 3D, and the 3D camera) is the world's, as last seen.
on('opened', ({ key }) => openedWorld(key ?? `served:${worldName.peek()}`));
on('edited', (step) => record(step));
on('reverted', ({ id }) => forgetEntity(id));
on('reverted', () => keepSoon());
on('edited', () => keepSoon());
on('restored', () => keepSoon());
on('saved', () => keepSoon());
on('discarded', ({ key }) => forgetKept(key));

window.addEventListener('beforeunload', (event) => {
  keepNowIfWaiting();
  if (pending.value.length > 0) {
    event.preventDefault();
    event.returnValue = '';
  }
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') keepNowIfWaiting();
});

// What the address holds after '#', and whether it is a change link
// (told by its first bytes; anything else opens as a shared level, which
// says what is wrong with it).
const linkInAddress = location.hash.length > 1 ? location.hash.slice(1) : null;
const isChangeLink = async (text) =>
  (await getEngine()
    .linkKind(text)
    .catch(() => null)) === 'changes';

// A served world starts downloading before the first render.
const served = servesWorld() ? openServerWorld() : null;

render(<App />, document.getElementById('app'));

(async () => {
  const changes = linkInAddress !== null && (await isChangeLink(linkInAddress));
  if (served) await served;
  else {
    await startUp({
      link: changes ? null : linkInAddress,
      openNone: new URLSearchParams(location.search).get('open') === 'none',
    });
  }
  if (changes) await applyLinkInAddress(linkInAddress);
})();

window.addEventListener('hashchange', async () => {
  if (location.hash.length <= 1) return;
  const text = location.hash.slice(1);
  if (await isChangeLink(text)) applyLinkInAddress(text);
  else openSnapshotText(text);
});

// A change link is applied once: then it leaves the address, so that a
// reload does not apply it again (its changes are pending, kept as any
// unsaved work is).
async function applyLinkInAddress(text) {
  if ((await openChangeLink(text)) && location.hash.slice(1) === text) {
    history.replaceState(null, '', `${location.pathname}${location.search}`);
  }
}
