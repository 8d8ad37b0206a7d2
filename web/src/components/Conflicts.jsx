// Files changed both on disk and in this page, left after merging both
// sides' changes key by key: the keys both changed differently, each with
// its value before, in this page and on disk, and the user's pick of each;
// or, for a file not merged so, the two versions side by side. Either way
// the whole file can be picked too. Until then neither is written over the
// other.
import { useEffect, useState } from 'preact/hooks';
import { SETTINGS } from '../lib/fields.js';
import { conflictView, conflicts, keepPageVersion, mergeWithPicks, takeDiskVersion } from '../state/conflicts.js';
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
// under a caption holding the button that picks it.
function Version({ label, lines, other, none, pick }) {
  return (
    <figure>
      <figcaption>
        <span>{label}</span>
        {pick}
      </figcaption>
      <pre aria-label={label}>
        {excerpt(lines, other, none).map((line, i) => (
          <span key={i} class={line.changed ? 'changed' : undefined}>
            {line.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

// A value of a key conflict ('(none)': that side lacks the key).
const Value = ({ text }) => (text === null ? <span class="muted">(none)</span> : <code>{text}</code>);

// The keys both sides changed differently, each a group of two radio
// buttons (this page's value, the disk's) under the key's name, with the
// value both started from. `theirs`: the keys picked from the disk.
function KeyPicks({ conflict, keys, theirs, setTheirs }) {
  const pick = (key, disk) => {
    const next = new Set(theirs);
    if (disk) next.add(key);
    else next.delete(key);
    setTheirs(next);
  };
  return (
    <div class="key-picks">
      {keys.map(({ key, base, ours, theirs: disk }) => (
        <fieldset key={key}>
          <legend>
            <code>{key}</code>
          </legend>
          <span class="was">
            was <Value text={base} />
          </span>
          {[
            ['This page', ours, false],
            ['On disk', disk, true],
          ].map(([label, text, fromDisk]) => (
            <label key={label}>
              <input
                type="radio"
                name={`${conflict.path}@${conflict.seq} ${key}`}
                checked={theirs.has(key) === fromDisk}
                disabled={busy.value}
                onChange={() => pick(key, fromDisk)}
              />
              <span class="side">{label}</span> <Value text={text} />
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}

function Conflict({ conflict }) {
  // { keys } or { reason, page } (conflictView); undefined until the engine answers.
  const [view, setView] = useState(undefined);
  const [theirs, setTheirs] = useState(() => new Set());
  // What the page has now: read again after every edit.
  const changes = [revision.value, settings.value];
  useEffect(() => {
    let current = true;
    conflictView(conflict).then(
      (next) => current && setView(next),
      (err) => current && setView({ keys: null, reason: err.message, page: null }),
    );
    return () => {
      current = false;
    };
  }, [conflict, ...changes]);
  const choice = (label, onClick) => (
    <button type="button" class="small" disabled={busy.value} onClick={onClick}>
      {label}
    </button>
  );
  const takeDisk = choice('Take the version on disk', () => takeDiskVersion(conflict.path));
  const keepPage = choice("Keep this page's version", () => keepPageVersion(conflict.path));
  let body;
  if (view === undefined) {
    body = <p class="muted">…</p>;
  } else if (view.keys) {
    const n = view.keys.length;
    body = (
      <>
        <p class="muted">
          {n === 0
            ? 'No field is changed differently on both sides any more: apply to merge them.'
            : `${n === 1 ? 'One field was' : `${n} fields were`} changed on both sides: pick the value to keep.`}{' '}
          Other changes of either side are merged as they are.
        </p>
        <KeyPicks conflict={conflict} keys={view.keys} theirs={theirs} setTheirs={setTheirs} />
        <p class="conflict-actions">
          <button type="button" class="small primary" disabled={busy.value} onClick={() => mergeWithPicks(conflict.path, [...theirs])}>
            Apply the values picked
          </button>
          <span class="muted">or the whole file:</span>
          {takeDisk}
          {keepPage}
        </p>
      </>
    );
  } else {
    const disk = linesOf(conflict.disk);
    const page = linesOf(view.page);
    body = (
      <>
        <p class="muted">Not merged field by field: {view.reason}.</p>
        <div class="versions">
          <Version label="On disk" lines={disk} other={page} none="(deleted on disk)" pick={takeDisk} />
          <Version label="In this page" lines={page} other={disk} none="(deleted in this page)" pick={keepPage} />
        </div>
      </>
    );
  }
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
      {body}
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
          Changed on disk and in this page. Nothing is written over either version until you pick; Save leaves these files alone.
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
