// What went wrong opening the world: a shared link that could not be read,
// then the files that failed to load (path, line, column, message and the
// line of the file with a caret under the column; those files are left as
// they are on disk) and problems of entities that loaded (a reference to a
// missing entity). Then, once per class no build describes, how many
// entities are kept as text (they loaded, but their fields cannot be
// edited).
import { classCounts } from '../state/listView.js';
import { linkProblem } from '../state/share.js';
import { diagnostics, opaqueClasses, status } from '../state/world.js';

const SHOWN = 500;

export function Diagnostics() {
  const list = diagnostics.value;
  const link = linkProblem.value;
  const count = list.length + (link ? 1 : 0);
  const open = status.value !== 'empty';
  return (
    <section class="pane diagnostics" aria-label="Diagnostics" tabIndex={-1} id="diagnostics">
      <h2>
        Diagnostics <span class="count">{count}</span>
      </h2>
      {link && (
        <p class="link-problem" aria-label="Shared link">
          <strong>{link.title}</strong> {link.detail}
        </p>
      )}
      {list.length > 0 ? (
        <ul>
          {list.slice(0, SHOWN).map((d, i) => (
            <li key={i}>
              {d.failed && <span class="badge">failed</span>} <DiagnosticPlace diagnostic={d} /> <span>{d.message}</span>
              <SourceExcerpt diagnostic={d} />
            </li>
          ))}
          {list.length > SHOWN && <li class="muted">and {list.length - SHOWN} more</li>}
        </ul>
      ) : (
        !link && <p class="muted">{open ? 'Every file loaded.' : 'No world is open.'}</p>
      )}
      <KeptClasses />
    </section>
  );
}

// path:line:col of a diagnostic (the line and column where it has them).
export function DiagnosticPlace({ diagnostic: d }) {
  return (
    <code class="where">
      {d.path}
      {d.line ? `:${d.line}` : ''}
      {d.line && d.col ? `:${d.col}` : ''}
    </code>
  );
}

// The line of the file a diagnostic points at, a caret under its column.
export function SourceExcerpt({ diagnostic: d }) {
  const excerpt = d.excerpt;
  if (!excerpt) return null;
  return (
    <pre class="excerpt" aria-label={`Line ${d.line} of ${d.path}`}>
      <code>
        <span class="line-no" aria-hidden="true">
          {d.line} |{' '}
        </span>
        {excerpt.text}
        {excerpt.caret >= 0 && (
          <>
            {'\n'}
            <span class="caret" aria-hidden="true">
              {' '.repeat(String(d.line).length + 3 + excerpt.caret)}^
            </span>
          </>
        )}
      </code>
    </pre>
  );
}

function KeptClasses() {
  const counts = classCounts.value;
  const kept = opaqueClasses.value.filter((name) => counts[name] > 0);
  if (kept.length === 0) return null;
  return (
    <ul aria-label="Classes unknown to this build">
      {kept.map((name) => (
        <li key={name} class="warning">
          <span class="badge">warning</span> {counts[name].toLocaleString('en')} {counts[name] === 1 ? 'entity' : 'entities'} of class{' '}
          <code>{name}</code> kept as text: no class file describes it (add <code>Classes/{name}.jclass</code> to edit their fields).
        </li>
      ))}
    </ul>
  );
}
