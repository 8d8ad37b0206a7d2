// The legend of a view of the level (the 2D map, the 3D view): each class
// with entities in the world, in its colour, as a button that hides or
// shows it in the views, with one that locks it (drawn, not taken by the
// pointer there); and Isolate, which draws the selected entities alone
// (state/viewFilter.js).
import { classColor } from '../lib/classColor.js';
import { classCounts } from '../state/listView.js';
import { selectionCount } from '../state/selection.js';
import { hiddenClasses, isolated, lockedClasses, toggleHidden, toggleIsolation, toggleLocked } from '../state/viewFilter.js';

export function Legend() {
  const counts = classCounts.value;
  const hidden = hiddenClasses.value;
  const locked = lockedClasses.value;
  const isolating = isolated.value !== null;
  return (
    <>
      <ul class="legend" aria-label="Classes">
        {Object.keys(counts)
          .filter((name) => counts[name] > 0)
          .map((name) => (
            <li key={name} class={hidden.has(name) ? 'hidden-class' : undefined}>
              <button
                type="button"
                class="legend-class"
                aria-pressed={hidden.has(name) ? 'false' : 'true'}
                title={`${hidden.has(name) ? 'Show' : 'Hide'} ${name} in the views`}
                onClick={() => toggleHidden(name)}
              >
                <span class="swatch" style={{ background: classColor(name) }} />
                {name}
              </button>
              <button
                type="button"
                class="legend-lock"
                aria-pressed={locked.has(name) ? 'true' : 'false'}
                aria-label={`Lock ${name}`}
                title={`${locked.has(name) ? 'Unlock' : 'Lock'} ${name}: ${locked.has(name) ? 'the pointer takes it again' : 'drawn, but not taken by the pointer'}`}
                onClick={() => toggleLocked(name)}
              >
                <LockIcon closed={locked.has(name)} />
              </button>
            </li>
          ))}
      </ul>
      <button
        type="button"
        class="small"
        aria-pressed={isolating ? 'true' : 'false'}
        aria-keyshortcuts="I"
        disabled={!isolating && selectionCount.value === 0}
        title={isolating ? 'Show every entity again (I)' : 'Draw the selected entities alone (I)'}
        onClick={toggleIsolation}
      >
        Isolate
      </button>
    </>
  );
}

// A padlock, shut or open.
function LockIcon({ closed }) {
  return (
    <svg width="10" height="12" viewBox="0 0 10 12" aria-hidden="true">
      <path
        d={closed ? 'M2.5 5V3.5a2.5 2.5 0 0 1 5 0V5' : 'M2.5 5V3.5a2.5 2.5 0 0 1 5 0'}
        fill="none"
        stroke="currentColor"
        stroke-width="1.4"
      />
      <rect x="1" y="5" width="8" height="6.5" rx="1" fill="currentColor" />
    </svg>
  );
}
