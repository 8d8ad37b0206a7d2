// A vertical splitter between two panes (WAI-ARIA window splitter): drag it,
// or focus it and use the arrow keys (Home and End for the limits). Its
// value is the width of the pane it resizes; `side` says on which side of
// the splitter that pane is ('before' | 'after'), so that dragging towards
// the pane shrinks it.
import { limits, paneWidths, resizePane } from '../state/layout.js';

const STEP = 16;

export function Splitter({ pane, side, label }) {
  const width = paneWidths.value[pane];
  const [min, max] = limits.value[pane];
  const sign = side === 'before' ? 1 : -1;

  function onKeyDown(event) {
    const keys = {
      ArrowLeft: () => resizePane(pane, width - sign * STEP),
      ArrowRight: () => resizePane(pane, width + sign * STEP),
      Home: () => resizePane(pane, min),
      End: () => resizePane(pane, max),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  function onPointerDown(event) {
    if (event.button !== 0) return;
    const el = event.currentTarget;
    el.setPointerCapture(event.pointerId);
    const start = event.clientX;
    const from = width;
    const move = (e) => resizePane(pane, from + sign * (e.clientX - start));
    const up = () => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
  }

  return (
    <div
      class="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={Math.round(max)}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
    />
  );
}
