// Entry point: renders the inspector, asks before leaving with unsaved
// changes (which are also kept in browser storage, see state/keep.js), and
// opens the level shared in the address (after '#'), else the last world
// with unsaved work kept in this browser, else the sample world
// (`?open=none` starts empty).
import { render } from 'preact';
import { App } from './components/App.jsx';
import { keepNowIfWaiting, startUp } from './state/keep.js';
import { openSnapshotText, pending } from './state/world.js';

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

render(<App />, document.getElementById('app'));

startUp({
  link: location.hash.length > 1 ? location.hash.slice(1) : null,
  openNone: new URLSearchParams(location.search).get('open') === 'none',
});

window.addEventListener('hashchange', () => {
  if (location.hash.length > 1) openSnapshotText(location.hash.slice(1));
});
