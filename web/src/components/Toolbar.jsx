// The toolbar: open (sample, folder picker, folder upload), save, add,
// delete, duplicate, copy and paste, and the name of the open world.
import { useRef, useState } from 'preact/hooks';
import { copySelection, duplicateSelection, paste } from '../state/copies.js';
import { deleteEntity } from '../state/edits.js';
import { canPickFolder } from '../state/folders.js';
import { canRedo, canUndo, redo, undo } from '../state/history.js';
import { keptState } from '../state/keep.js';
import { openFolder, openSample, openSnapshotText } from '../state/open.js';
import { pending } from '../state/pending.js';
import { save } from '../state/save.js';
import { selectedId, selectionCount } from '../state/selection.js';
import { share } from '../state/share.js';
import { busy, source, status, worldName } from '../state/world.js';
import { AddEntityDialog } from './AddEntityDialog.jsx';
import { UploadFolder } from './UploadFolder.jsx';

// Where the open world comes from: a short label, and what Save does.
const SOURCES = {
  sample: ['bundled sample', 'Save downloads the changed files'],
  folder: ['folder on disk', 'Save writes into the folder'],
  upload: ['uploaded copy', 'Save downloads the changed files'],
  link: ['shared level, not saved yet', 'Save asks for a folder'],
  server: ['folder on disk, live', 'Save writes into the folder through the local server; changes on disk show at once'],
};

// Whether the unsaved changes are kept in browser storage (see keep.js).
const KEPT = {
  saving: ['keeping…', 'Storing the unsaved changes in this browser'],
  kept: ['kept', 'Kept in this browser: a reload or a crash of the tab does not lose them'],
  failed: ['not kept', 'The browser storage failed: save to keep the changes'],
};

export function Toolbar() {
  const upload = useRef(null);
  const [adding, setAdding] = useState(false);
  const ready = status.value === 'ready';
  const count = pending.value.length;

  async function onOpenFolder() {
    if (!canPickFolder() || !(await openFolder())) upload.current.click();
  }

  return (
    <header class="toolbar">
      <h1 class="brand">Juliet World</h1>
      <div class="group">
        <button type="button" onClick={openSample} disabled={busy.value}>
          Open sample
        </button>
        <button type="button" onClick={onOpenFolder} disabled={busy.value}>
          Open folder
        </button>
        <UploadFolder label="Upload folder" inputRef={upload} />
        <label class="button secondary">
          Open snapshot file
          <input
            class="visually-hidden"
            type="file"
            accept=".txt,text/plain"
            disabled={busy.value}
            onChange={async (e) => {
              const input = e.currentTarget;
              const file = input.files[0];
              if (file) await openSnapshotText(await file.text(), file.name);
              input.value = '';
            }}
          />
        </label>
      </div>
      <div class="group">
        <button type="button" class="primary" onClick={save} disabled={!ready} aria-keyshortcuts="Control+S">
          Save
        </button>
        <button type="button" onClick={undo} disabled={!canUndo.value} aria-keyshortcuts="Control+Z">
          Undo
        </button>
        <button type="button" onClick={redo} disabled={!canRedo.value} aria-keyshortcuts="Control+Shift+Z">
          Redo
        </button>
        <button type="button" onClick={share} disabled={!ready}>
          Share
        </button>
        <button type="button" onClick={() => setAdding(true)} disabled={!ready}>
          Add entity
        </button>
        <button
          type="button"
          onClick={() => deleteEntity()}
          disabled={!ready || selectedId.value === null}
        >
          {selectionCount.value > 1 ? `Delete ${selectionCount.value} entities` : 'Delete entity'}
        </button>
        <button type="button" onClick={duplicateSelection} disabled={!ready || selectedId.value === null} aria-keyshortcuts="Control+D">
          Duplicate
        </button>
        <button type="button" onClick={copySelection} disabled={!ready || selectedId.value === null} aria-keyshortcuts="Control+C">
          Copy
        </button>
        <button type="button" onClick={() => paste()} disabled={!ready} aria-keyshortcuts="Control+V">
          Paste
        </button>
      </div>
      <div class="world-name">
        {worldName.value ? (
          <>
            <strong>{worldName.value}</strong>
            {count > 0 && <span class="unsaved"> · {count} unsaved</span>}
            {count > 0 && KEPT[keptState.value] && (
              <span class={`kept-state ${keptState.value}`} title={KEPT[keptState.value][1]}>
                {' '}
                · {KEPT[keptState.value][0]}
              </span>
            )}
            <span class="muted" title={SOURCES[source.value?.kind]?.[1]}>
              {' '}
              · {SOURCES[source.value?.kind]?.[0] ?? ''}
            </span>
          </>
        ) : (
          <span class="muted">No world open</span>
        )}
      </div>
      {adding && <AddEntityDialog onClose={() => setAdding(false)} />}
    </header>
  );
}
