// The map header's placement tools: Snap to grid and its step, and, in
// place mode, what a click on the map creates with a button (or Escape) to
// leave the mode.
import { useState } from 'preact/hooks';
import { placing, setSnap, snap, stopPlacing, validStep } from '../state/placement.js';
import { useEscapeLeaves } from './useEscapeLeaves.js';

export function PlacementTools() {
  const { on, step } = snap.value;
  const [draft, setDraft] = useState(null);
  const mode = placing.value;

  useEscapeLeaves(!!mode, stopPlacing);

  const stepText = draft ?? String(step);
  const stepValid = validStep(Number(stepText)) && stepText.trim() !== '';
  return (
    <>
      <div class="snap" role="group" aria-label="Snap to grid">
        <label title="Drags, clicks to place and typed positions land on multiples of the step">
          <input type="checkbox" aria-label="Snap to grid" checked={on} onChange={(e) => setSnap({ on: e.currentTarget.checked })} />
          Snap
        </label>
        <input
          type="text"
          inputMode="decimal"
          class="snap-step"
          aria-label="Snap step"
          title="Snap step, in world units"
          value={stepText}
          aria-invalid={stepValid ? undefined : 'true'}
          onInput={(e) => {
            const text = e.currentTarget.value;
            setDraft(text);
            if (validStep(Number(text)) && text.trim() !== '') setSnap({ step: Number(text) });
          }}
          onBlur={() => setDraft(null)}
        />
      </div>
      {mode && (
        <div class="place-mode" role="status" aria-label="Place mode">
          <span>
            Click the map to place a <strong>{mode.className}</strong>
            <span class="muted"> (Enter on the map: at its centre)</span>
          </span>
          <button type="button" class="small" onClick={stopPlacing} aria-keyshortcuts="Escape" title="Leave place mode (Escape)">
            Stop placing
          </button>
        </div>
      )}
    </>
  );
}
