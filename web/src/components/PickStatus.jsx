// The map header's line in pick mode (state/refPick.js): what the next
// click on an entity sets, with a button (or Escape) to cancel.
import { cancelPick, pickingFor } from '../state/refPick.js';
import { useEscapeLeaves } from './useEscapeLeaves.js';

export function PickStatus() {
  const mode = pickingFor.value;

  useEscapeLeaves(!!mode, cancelPick);

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
