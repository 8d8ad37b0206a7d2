// The pending changes as a review: each entity the next Save writes or
// deletes, by ID and class (its file secondary), with what changed field by
// field (`intensity 18.1 → 42`), new entities with their fields and deleted
// ones; a row selects its entity. For a level from a shared link, the edits
// made since it was opened, and that Save writes the whole level to a new
// folder.
import { SETTINGS_FILE } from 'juliet-world';
import { useEffect } from 'preact/hooks';
import { SETTINGS, entityPath } from '../lib/fields.js';
import { plural } from '../lib/plural.js';
import { canPickFolder } from '../state/folders.js';
import { pending } from '../state/pending.js';
import { SHOWN, changeCount, followReview, fromLink, review, reviewing } from '../state/review.js';
import { saveReport } from '../state/save.js';
import { select, selectedId } from '../state/selection.js';
import { rowClass, table } from '../state/table.js';

const KIND_TEXT = { new: 'new', modified: 'modified', deleted: 'deleted' };
// Keys every entity file opens with: a new entity's ID and class are its
// heading, the rest says nothing about it.
const HEADER_KEYS = new Set(['asset_type', 'id', 'class', 'version', 'class_version']);

export function PendingChanges() {
  useEffect(followReview, []);
  const link = fromLink.value;
  const report = saveReport.value;
  const reviewed = review.value;
  // What to list: the pending files, or for a link the entities edited since it was opened.
  const list = link ? reviewed.entries.map((e) => ({ kind: e.kind, id: e.id, path: pathOf(e.id) })) : pending.value;
  const count = changeCount.value;
  return (
    <section class="pane pending" aria-label="Pending changes" aria-busy={reviewing.value ? 'true' : 'false'}>
      <h2>
        Pending changes <span class="count">{count.toLocaleString('en')}</span>
      </h2>
      {link && (
        <p class="link-note">
          Opened from a shared link: {count === 0 ? 'no edits' : plural(count, 'edit')} since. Save writes the whole level (
          {plural(table.rowOf.size, 'entity', 'entities')}) {canPickFolder() ? 'to a new folder' : 'into a download, as a new folder'}.
        </p>
      )}
      {reviewed.error && <p class="field-error">Could not compare the changes: {reviewed.error}</p>}
      {count === 0 ? (
        !link && <p class="muted">No unsaved changes.</p>
      ) : (
        <ul class="review">
          {list.slice(0, SHOWN).map((entry) => (
            <Entry key={entry.path} entry={entry} reviewed={entry.id === null ? null : reviewed.byId.get(entry.id)} />
          ))}
          {count > SHOWN && <li class="muted">and {(count - SHOWN).toLocaleString('en')} more</li>}
        </ul>
      )}
      {report && (
        <details class="save-report">
          <summary>
            Last save: {report.written.length} written, {report.deleted.length} deleted
          </summary>
          <ul>
            {report.written.map((p) => (
              <li key={`w${p}`}>wrote {p}</li>
            ))}
            {report.deleted.map((p) => (
              <li key={`d${p}`}>deleted {p}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

const pathOf = (id) => (id === SETTINGS ? SETTINGS_FILE : entityPath(id));

// One entity (or the settings, or a file with no entity) and its changed fields.
function Entry({ entry, reviewed }) {
  const { id, kind } = entry;
  const row = id === null ? undefined : table.rowOf.get(id);
  const selectable = row !== undefined;
  const className = row !== undefined ? rowClass(row) : reviewed?.className;
  const title = id === SETTINGS ? 'World settings' : `${id}${className ? ` ${className}` : ''}`;
  const changes = (reviewed?.changes ?? []).filter((c) => kind !== 'new' || !HEADER_KEYS.has(c.key));
  const pick = () => select(id);
  return (
    <li class={`kind-${kind}${selectable && selectedId.value === id ? ' current' : ''}`}>
      <div class="entity">
        <span class="badge">{KIND_TEXT[kind]}</span>
        {selectable ? (
          <button type="button" class="link" onClick={pick}>
            <span class="id">{id}</span> {className}
          </button>
        ) : (
          id !== null && <span>{title}</span>
        )}
        <span class="path">{entry.path}</span>
      </div>
      {kind !== 'deleted' && changes.length > 0 && (
        <ul class="changes">
          {changes.map((c) => (
            <li key={c.key}>
              {selectable ? (
                <button type="button" class="change" onClick={pick}>
                  <Change change={c} />
                </button>
              ) : (
                <span class="change">
                  <Change change={c} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {reviewed?.error && <p class="field-error">{reviewed.error}</p>}
    </li>
  );
}

// `key old → new`; `key value` for a key that is new, `key old → removed` for one that is gone.
function Change({ change }) {
  return (
    <>
      <span class="key">{change.key}</span>{' '}
      {change.old !== null && (
        <>
          <span class="old" title={change.old}>
            {change.old}
          </span>
          {' → '}
        </>
      )}
      {change.new !== null ? (
        <span class="new" title={change.new}>
          {change.new}
        </span>
      ) : (
        <span class="removed">removed</span>
      )}
    </>
  );
}
