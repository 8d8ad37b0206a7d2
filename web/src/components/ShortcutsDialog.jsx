// The keyboard shortcuts, listed in a dialog that `?` (outside a text field)
// or the toolbar's button opens; Escape closes it and focus goes back where
// it was.
import { useEffect, useRef, useState } from 'preact/hooks';
import { isTyping } from '../lib/keys.js';

// What each part of the inspector does with which keys (App, WorldMap,
// Viewport, EntityList, TextField, Splitter and PlacementTools handle them).
const SHORTCUTS = [
  {
    where: 'Everywhere',
    keys: [
      ['Ctrl+Z', 'Undo'],
      ['Ctrl+Shift+Z, Ctrl+Y', 'Redo'],
      ['Ctrl+S', 'Save'],
      ['Ctrl+D', 'Duplicate the selected entities'],
      ['Ctrl+C, Ctrl+V', 'Copy and paste the selected entities (as text)'],
      ['?', 'This list of shortcuts'],
      ['Escape', 'Leave place mode or pick mode'],
    ],
  },
  {
    where: 'Map',
    keys: [
      ['Arrow keys', 'Select the nearest entity in that direction'],
      ['Shift+Arrow keys', 'Pan'],
      ['+ and -', 'Zoom in and out (the wheel too)'],
      ['F', 'Frame the selection (the whole world when nothing is selected); Fit frames the world'],
      ['Enter', 'Select the entity nearest the centre'],
      ['I', 'Isolate the selection (draw it alone); again to show every entity'],
      ['Escape', 'Clear the selection'],
      ['Ctrl+A', 'Select every entity shown'],
      ['Shift+click, Ctrl+click', 'Add to the selection; Ctrl+click again takes out'],
      ['Drag', 'Move the selected entities'],
      ['Drag on empty space', 'Select the entities inside a rectangle'],
      ['Middle drag, Alt+drag', 'Pan by dragging'],
      ['Click', 'In place mode: create an entity there'],
      ['Enter in place mode', 'Create an entity at the centre'],
    ],
  },
  {
    where: '3D view',
    keys: [
      ['Click', 'Select the entity under the pointer (Shift adds, Ctrl toggles)'],
      ['Drag on empty space', 'Select the entities inside a rectangle'],
      ['Drag the gizmo', 'Move the selected entities along an axis or a plane, or turn them'],
      ['W, E', 'Move or Rotate gizmo (Rotate for a class with a quat field)'],
      ['Right drag', 'Look around (pan in Top, Front and Side)'],
      ['W, A, S, D, Q, E with the right button held', 'Fly forward, left, back, right, down, up'],
      ['Alt+drag', 'Orbit the point looked at'],
      ['Middle drag', 'Pan'],
      ['Wheel', 'Zoom'],
      ['F', 'Frame the selection (the whole world when nothing is selected)'],
      ['I', 'Isolate the selection (draw it alone); again to show every entity'],
      ['5, 7, 1, 3', 'Perspective, Top, Front and Side views'],
      ['Arrow keys', 'Select the nearest entity on screen in that direction'],
      ['Enter, Escape', 'Select the entity nearest the centre; select none'],
      ['Click, Enter in place mode', 'Create an entity on the grid, there or at the centre'],
      ['Ctrl+D, Ctrl+V', 'Duplicate, paste at the point under the pointer (at the centre when it is elsewhere)'],
    ],
  },
  {
    where: 'Entity list',
    keys: [
      ['Up and Down', 'Previous and next entity'],
      ['Page Up, Page Down', 'A page up or down'],
      ['Home and End', 'First and last entity'],
      ['Right, Left', 'Open a subtree or go to its first child; close it or go to the parent'],
      ['Drag onto an entity', 'Put the entities dragged under it (onto the strip at the top: no parent)'],
      ['Shift+Up, Shift+Down', 'Extend the selection'],
      ['Shift+click, Ctrl+click', 'Select a range; add or take out one'],
      ['Ctrl+A', 'Select every entity listed'],
      ['Delete', 'Delete the selected entities'],
    ],
  },
  {
    where: 'Fields',
    keys: [
      ['Enter', 'Apply the typed value (leaving the field does too)'],
      ['Escape', 'Put back the current value'],
      ['Arrow keys, Enter', 'In a reference field: choose among the entities found by its text'],
    ],
  },
  {
    where: 'Splitters beside the map',
    keys: [
      ['Left and Right', 'Resize the pane'],
      ['Home and End', 'Narrowest and widest'],
    ],
  },
];

export function ShortcutsButton() {
  const [open, setOpen] = useState(false);
  const opener = useRef(null);

  useEffect(() => {
    const onKey = (event) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      opener.current = document.activeElement;
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        class="icon"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        aria-keyshortcuts="?"
        onClick={(e) => {
          opener.current = e.currentTarget;
          setOpen(true);
        }}
      >
        ?
      </button>
      {open && (
        <ShortcutsDialog
          onClose={() => {
            setOpen(false);
            opener.current?.focus?.();
          }}
        />
      )}
    </>
  );
}

function ShortcutsDialog({ onClose }) {
  const dialog = useRef(null);
  useEffect(() => {
    const el = dialog.current;
    el.showModal();
    el.addEventListener('close', onClose);
    return () => el.removeEventListener('close', onClose);
  }, []);

  return (
    <dialog ref={dialog} class="add-dialog shortcuts" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <div class="shortcut-groups">
        {SHORTCUTS.map(({ where, keys }) => (
          <section key={where} aria-label={where}>
            <h3>{where}</h3>
            <dl>
              {keys.map(([key, what]) => (
                <div key={key + what}>
                  <dt>
                    <kbd>{key}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div class="dialog-buttons">
        <button type="button" class="primary" onClick={() => dialog.current.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
