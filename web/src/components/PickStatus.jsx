// The map header's line in pick mode (state/refPick.js): what the next
// click on an entity sets, with a button (or Escape) to cancel.
import { useEffect } from 'preact/hooks';
import { isTyping } from '../lib/keys.js';
import { cancelPick, pickingFor } from '../state/refPick.js';

export function PickStatus() {
  const mode = pickingFor.value;

  // Escape cancels before the map or the 3D view acts on it (they would
  // clear the selection); an open dialog and a field keep their own Escape.
  useEffect(() => {
    if (!mode) return undefined;
    const onKey = (event) => {
      if (event.key !== 'Escape' || document.querySelector('dialog[open]') || isTyping(event.target)) return;
      event.preventDefault();
      event.stopPropagation();
      cancelPick();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [!!mode]);

  if (!mode) return null;
  return (
    <div class="place-mode" role="status" aria-label="Pick mode">
      <span>
        Click an entity to set <strong>{mode.field}</strong> of <strong>{mode.label}</strong>
        <span class="muted">, Escape cancels</span>
      </span>
      <button type="button" class="small" onClick={cancelPick} aria-keyshortcuts="Escape" title="Leave pick mode (Escape)">
        Cancel
      </button>
    </div>
  );
}
