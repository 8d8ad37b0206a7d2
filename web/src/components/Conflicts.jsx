// Files changed both on disk and in this page: the two versions side by
// side and the user's pick. Until then neither is written over the other.
import { useEffect, useState } from 'preact/hooks';
import { SETTINGS } from '../lib/fields.js';
import { conflicts, keepPageVersion, pageVersion, takeDiskVersion } from '../state/conflicts.js';
import { select } from '../state/selection.js';
import { revision } from '../state/table.js';
import { busy, settings } from '../state/world.js';

const decoder = new TextDecoder();
const linesOf = (bytes) => (bytes === null ? null : decoder.decode(bytes).split('\n'));

// The lines of `lines` worth showing next to `other`: those that differ (by
// position) and the line before each (in a .jasset file, the value's key),
// with '…' for what is left out between them. A missing file shows as `none`.
function excerpt(lines, other, none) {
  if (lines === null) return [{ text: none, changed: true }];
  if (other === null) return lines.map((text) => ({ text, changed: true }));
  const keep = new Set();
  lines.forEach((line, i) => {
    if (line !== other[i]) keep.add(i - 1).add(i);
  });
  const out = [];
  lines.forEach((text, i) => {
    if (keep.has(i)) out.push({ text, changed: text !== other[i] });
    else if (keep.has(i - 1)) out.push({ text: '…', changed: false });
  });
  if (out.at(-1)?.text === '…') out.pop();
  return out;
}

// One side of a conflict: its lines (those that differ, bounded in height)
// under a caption holding the button that picks it; '…' while `lines` or
// `other` is undefined (not read yet).
function Version({ label, lines, other, none, pick }) {
  return (
    <figure>
      <figcaption>
        <span>{label}</span>
        {pick}
      </figcaption>
      <pre aria-label={label}>
        {(lines === undefined || other === undefined ? [{ text: '…' }] : excerpt(lines, other, none)).map((line, i) => (
          <span key={i} class={line.changed ? 'changed' : undefined}>
            {line.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

function Conflict({ conflict }) {
  const [mine, setMine] = useState(undefined);
  // The page's version as it is now: read again after every edit.
  const changes = [revision.value, settings.value];
  useEffect(() => {
    let current = true;
    pageVersion(conflict).then(
      (text) => current && setMine(text),
      () => current && setMine(null),
    );
    return () => {
      current = false;
    };
  }, [conflict, ...changes]);
  const disk = linesOf(conflict.disk);
  // undefined until the engine answers.
  const page = mine === undefined ? undefined : linesOf(mine);
  const choice = (label, onClick) => (
    <button type="button" class="small" disabled={busy.value} onClick={onClick}>
      {label}
    </button>
  );
  return (
    <li class="conflict" aria-label={`Conflict ${conflict.path}`}>
      <p class="conflict-head">
        <code>{conflict.path}</code>
        {conflict.id !== SETTINGS && (
          <button type="button" class="link" onClick={() => select(conflict.id)}>
            select
          </button>
        )}
      </p>
      <div class="versions">
        <Version
          label="On disk"
          lines={disk}
          other={page}
          none="(deleted on disk)"
          pick={choice('Take the version on disk', () => takeDiskVersion(conflict.path))}
        />
        <Version
          label="In this page"
          lines={page}
          other={disk}
          none="(deleted in this page)"
          pick={choice("Keep this page's version", () => keepPageVersion(conflict.path))}
        />
      </div>
    </li>
  );
}

// The panel stays small: one line when hidden, and a list of bounded height
// (each version's differing lines bounded too) that scrolls when shown.
export function Conflicts() {
  const [open, setOpen] = useState(true);
  const list = conflicts.value;
  if (list.length === 0) return null;
  return (
    <section class={`conflicts${open ? '' : ' closed'}`} aria-label="Conflicts">
      <header>
        <h2>
          Conflicts <span class="count">{list.length}</span>
        </h2>
        <p class="muted">
          Changed on disk and in this page. Nothing is written over either version until you pick one; Save leaves these files alone.
        </p>
        <button type="button" class="small" aria-expanded={open ? 'true' : 'false'} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'}
        </button>
      </header>
      {open && (
        <ul>
          {list.map((c) => (
            <Conflict key={`${c.path}@${c.seq}`} conflict={c} />
          ))}
        </ul>
      )}
    </section>
  );
}
