// Unsaved work kept in browser storage: the notice that the open world
// carries restored, unsaved changes, and the offer to restore (or discard)
// the kept work of other worlds.
import { forgetKept, otherWork, reopenKept, restoredShown } from '../state/keep.js';
import { pending } from '../state/pending.js';
import { busy } from '../state/world.js';
import { UploadFolder } from './UploadFolder.jsx';

function when(savedAt) {
  return new Date(savedAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

const RESTORE_LABEL = { sample: 'Restore', link: 'Restore', folder: 'Reconnect folder' };

function Offer({ entry }) {
  const changes = `${entry.count} unsaved change${entry.count === 1 ? '' : 's'}`;
  return (
    <li>
      <span>
        {changes} to <strong>{entry.name}</strong> ({when(entry.savedAt)}) are kept in this browser.
        {entry.kind === 'upload' && ' Upload the same folder again to restore them.'}
        {entry.kind === 'folder' && !entry.handle && ' Open the same folder again to restore them.'}
      </span>
      {entry.kind === 'upload' ? (
        <UploadFolder label="Upload folder again" />
      ) : (
        <button type="button" disabled={busy.value} onClick={() => reopenKept(entry)}>
          {entry.kind === 'folder' && !entry.handle ? 'Open folder again' : RESTORE_LABEL[entry.kind]}
        </button>
      )}
      <button type="button" class="link" onClick={() => forgetKept(entry.key)}>
        Discard
      </button>
    </li>
  );
}

export function KeptWork() {
  const shown = restoredShown.value;
  const others = otherWork.value;
  if (!shown && others.length === 0) return null;
  return (
    <div class="kept">
      {shown && (
        <p class="restored" role="note" aria-label="Restored unsaved changes">
          Restored {pending.value.length} unsaved change{pending.value.length === 1 ? '' : 's'} to <strong>{shown.name}</strong> kept in
          this browser ({when(shown.savedAt)}). They are not saved yet: Save writes them.
        </p>
      )}
      {others.length > 0 && (
        <ul class="offers" aria-label="Unsaved work kept in this browser">
          {others.map((entry) => (
            <Offer key={entry.key} entry={entry} />
          ))}
        </ul>
      )}
    </div>
  );
}
