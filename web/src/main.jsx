// Entry point: renders the inspector, asks before leaving with unsaved
// changes, and opens the sample world unless the address says otherwise
// (`?open=none` starts empty).
import { render } from 'preact';
import { App } from './components/App.jsx';
import { openSample, pending } from './state/world.js';

window.addEventListener('beforeunload', (event) => {
  if (pending.value.length > 0) {
    event.preventDefault();
    event.returnValue = '';
  }
});

render(<App />, document.getElementById('app'));

if (new URLSearchParams(location.search).get('open') !== 'none') openSample();
