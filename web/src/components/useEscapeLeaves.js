// Escape leaves a mode of the views (place mode, pick mode) before anything
// else acts on it: the map and the 3D view would clear the selection. An
// open dialog keeps its own Escape, and so does a field being typed in (it
// puts its value back).
import { useLayoutEffect } from 'preact/hooks';
import { isTyping } from '../lib/keys.js';

/** While `active`, Escape calls `leave()` and goes no further. */
export function useEscapeLeaves(active, leave) {
  // A layout effect: the key is heard as soon as the mode shows, not after
  // the next paint (a key pressed in between would reach the views).
  useLayoutEffect(() => {
    if (!active) return undefined;
    const onKey = (event) => {
      if (event.key !== 'Escape' || document.querySelector('dialog[open]') || isTyping(event.target)) return;
      event.preventDefault();
      event.stopPropagation();
      leave();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [active]);
}
