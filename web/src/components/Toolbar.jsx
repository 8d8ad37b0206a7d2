// The toolbar: open (sample, folder picker, folder upload), save, add,
// delete, duplicate, copy and paste, the keyboard shortcuts, and the name
// of the open world, on one row: a narrow window shows each control's short
// label (Label), its full name staying its accessible name and tooltip.
import { useRef, useState } from 'preact/hooks';
import { copySelection, duplicateSelection, paste } from '../state/copies.js';
import { deleteEntity } from '../state/edits.js';
import { canPickFolder } from '../state/folders.js';
import { canRedo, canUndo, redo, undo } from '../state/history.js';
import { keptState } from '../state/keep.js';
import { openFolder, openSample, openSnapshotText } from '../state/open.js';
import { changeCount } from '../state/review.js';
import { save } from '../state/save.js';
import { selectedId, selectionCount } from '../state/selection.js';
import { share } from '../state/share.js';
import { busy, source, status, worldName } from '../state/world.js';
import { AddEntityDialog } from './AddEntityDialog.jsx';
import { ShortcutsButton } from './ShortcutsDialog.jsx';
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

// A control's text: the full label, or in a narrow window the short one.
function Label({ full, short }) {
  return (
    <>
      <span class="label-full">{full}</span>
      <span class="label-short" aria-hidden="true">
        {short}
      </span>
    </>
  );
}

// A toolbar button named `label` (its tooltip too, with its shortcut `keys`
// if given, as `Ctrl+D`; aria-keyshortcuts gets the same keys spelled out).
function ToolButton({ label, short, keys, ...props }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={keys ? `${label} (${keys})` : label}
      aria-keyshortcuts={keys?.replace('Ctrl+', 'Control+')}
      {...props}
    >
      <Label full={label} short={short} />
    </button>
  );
}

export function Toolbar() {
  const upload = useRef(null);
  const [adding, setAdding] = useState(false);
  const ready = status.value === 'ready';
  // Delete, Duplicate and Copy act on the selection.
  const noSelection = !ready || selectedId.value === null;
  const count = changeCount.value;

  async function onOpenFolder() {
    if (!canPickFolder() || !(await openFolder())) upload.current.click();
  }

  return (
    <header class="toolbar">
      <h1 class="brand">Juliet World</h1>
      <div class="group">
        <ToolButton label="Open sample" short="Sample" onClick={openSample} disabled={busy.value} />
        <ToolButton label="Open folder" short="Folder" onClick={onOpenFolder} disabled={busy.value} />
        <UploadFolder label="Upload folder" inputRef={upload}>
          <Label full="Upload folder" short="Upload" />
        </UploadFolder>
        <label class="button secondary" title="Open snapshot file">
          <Label full="Open snapshot file" short="Snapshot" />
          <input
            aria-label="Open snapshot file"
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
        <ToolButton label="Save" short="Save" keys="Ctrl+S" class="primary" onClick={save} disabled={!ready} />
        <ToolButton label="Undo" short="Undo" keys="Ctrl+Z" onClick={undo} disabled={!canUndo.value} />
        <ToolButton label="Redo" short="Redo" keys="Ctrl+Shift+Z" onClick={redo} disabled={!canRedo.value} />
        <ToolButton label="Share" short="Share" onClick={share} disabled={!ready} />
        <ToolButton label="Add entity" short="Add" onClick={() => setAdding(true)} disabled={!ready} />
        <ToolButton
          label={selectionCount.value > 1 ? `Delete ${selectionCount.value} entities` : 'Delete entity'}
          short="Delete"
          onClick={() => deleteEntity()}
          disabled={noSelection}
        />
        <ToolButton label="Duplicate" short="Duplicate" keys="Ctrl+D" onClick={duplicateSelection} disabled={noSelection} />
        <ToolButton label="Copy" short="Copy" keys="Ctrl+C" onClick={copySelection} disabled={noSelection} />
        <ToolButton label="Paste" short="Paste" keys="Ctrl+V" onClick={() => paste()} disabled={!ready} />
        <ShortcutsButton />
      </div>
      <div class="world-name" title={worldTitle(count)}>
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

// The world header's full text, its tooltip where it is cut short.
function worldTitle(count) {
  if (!worldName.value) return undefined;
  const parts = [worldName.value];
  if (count > 0) parts.push(`${count} unsaved`);
  if (count > 0 && KEPT[keptState.value]) parts.push(KEPT[keptState.value][0]);
  const kind = SOURCES[source.value?.kind];
  if (kind) parts.push(`${kind[0]}: ${kind[1]}`);
  return parts.join(' · ');
}
