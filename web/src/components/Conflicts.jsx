// Files changed both on disk and in this page: the two versions side by
// side and the user's pick. Until then neither is written over the other.
import { useEffect, useState } from 'preact/hooks';
import { SETTINGS } from '../lib/fields.js';
import { conflicts, keepPageVersion, takeDiskVersion } from '../state/conflicts.js';
import { getEngine } from '../state/engine.js';
import { select } from '../state/selection.js';
import { revision } from '../state/table.js';
import { busy, settings } from '../state/world.js';

const decoder = new TextDecoder();
const shown = (bytes, none) => (bytes === null ? none : decoder.decode(bytes));

function Conflict({ conflict }) {
  const [mine, setMine] = useState(undefined);
  // The page's version as it is now: read again after every edit.
  const changes = [revision.value, settings.value];
  useEffect(() => {
    let current = true;
    getEngine()
      .texts([conflict.id])
      .then(([text]) => current && setMine(text), () => current && setMine(null));
    return () => {
      current = false;
    };
  }, [conflict, ...changes]);
  return (
    <li class="conflict" aria-label={`Conflict ${conflict.path}`}>
      <p>
        <code>{conflict.path}</code>
        {conflict.id !== SETTINGS && (
          <button type="button" class="link" onClick={() => select(conflict.id)}>
            {' '}
            select
          </button>
        )}
      </p>
      <div class="versions">
        <figure>
          <figcaption>On disk</figcaption>
          <pre aria-label="On disk">{shown(conflict.disk, '(deleted on disk)')}</pre>
        </figure>
        <figure>
          <figcaption>In this page</figcaption>
          <pre aria-label="In this page">{mine === undefined ? '…' : shown(mine, '(deleted in this page)')}</pre>
        </figure>
      </div>
      <div class="choices">
        <button type="button" disabled={busy.value} onClick={() => keepPageVersion(conflict.path)}>
          Keep this page's version
        </button>
        <button type="button" disabled={busy.value} onClick={() => takeDiskVersion(conflict.path)}>
          Take the version on disk
        </button>
      </div>
    </li>
  );
}

export function Conflicts() {
  const list = conflicts.value;
  if (list.length === 0) return null;
  return (
    <section class="conflicts" aria-label="Conflicts">
      <h2>
        Conflicts <span class="count">{list.length}</span>
      </h2>
      <p class="muted">
        Changed on disk and in this page. Nothing is written over either version until you pick one; Save leaves
        these files alone.
      </p>
      <ul>
        {list.map((c) => (
          <Conflict key={`${c.path}@${c.seq}`} conflict={c} />
        ))}
      </ul>
    </section>
  );
}
