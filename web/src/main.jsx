// Entry point: renders the inspector, asks before leaving with unsaved
// changes, and opens the level shared in the address (after '#'), else the
// sample world (`?open=none` starts empty).
import { render } from 'preact';
import { App } from './components/App.jsx';
import { openSample, openSnapshotText, pending } from './state/world.js';

window.addEventListener('beforeunload', (event) => {
  if (pending.value.length > 0) {
    event.preventDefault();
    event.returnValue = '';
  }
});

render(<App />, document.getElementById('app'));

if (location.hash.length > 1) openSnapshotText(location.hash.slice(1));
else if (new URLSearchParams(location.search).get('open') !== 'none') openSample();

window.addEventListener('hashchange', () => {
  if (location.hash.length > 1) openSnapshotText(location.hash.slice(1));
});
