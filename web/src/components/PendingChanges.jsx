// The pending changes: the files the next Save will write or delete.
import { pending } from '../state/pending.js';
import { saveReport } from '../state/save.js';
import { select } from '../state/selection.js';
import { table } from '../state/table.js';

const SHOWN = 200;
const KIND_TEXT = { new: 'new', modified: 'modified', deleted: 'deleted' };

export function PendingChanges() {
  const list = pending.value;
  const report = saveReport.value;
  return (
    <section class="pane pending" aria-label="Pending changes">
      <h2>
        Pending changes <span class="count">{list.length}</span>
      </h2>
      {list.length === 0 ? (
        <p class="muted">No unsaved changes.</p>
      ) : (
        <ul>
          {list.slice(0, SHOWN).map((entry) => (
            <li key={entry.path} class={`kind-${entry.kind}`}>
              <span class="badge">{KIND_TEXT[entry.kind]}</span>
              {entry.id && table.rowOf.has(entry.id) ? (
                <button type="button" class="link" onClick={() => select(entry.id)}>
                  {entry.path}
                </button>
              ) : (
                <span>{entry.path}</span>
              )}
            </li>
          ))}
          {list.length > SHOWN && <li class="muted">and {(list.length - SHOWN).toLocaleString('en')} more</li>}
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
