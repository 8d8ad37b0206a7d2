// Files that failed to load: path, line, column and message. Those files are
// left as they are on disk. Then, once per class no build describes, how
// many entities are kept as text (they loaded, but their fields cannot be
// edited).
import { classCounts } from '../state/listView.js';
import { diagnostics, opaqueClasses } from '../state/world.js';

const SHOWN = 500;

export function Diagnostics() {
  const list = diagnostics.value;
  return (
    <section class="pane diagnostics" aria-label="Diagnostics">
      <h2>
        Diagnostics <span class="count">{list.length}</span>
      </h2>
      {list.length === 0 ? (
        <p class="muted">Every file loaded.</p>
      ) : (
        <ul>
          {list.slice(0, SHOWN).map((d, i) => (
            <li key={i}>
              <code class="where">
                {d.path}:{d.line}
                {d.col ? `:${d.col}` : ''}
              </code>{' '}
              <span>{d.message}</span>
            </li>
          ))}
          {list.length > SHOWN && <li class="muted">and {list.length - SHOWN} more</li>}
        </ul>
      )}
      <KeptClasses />
    </section>
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
          <span class="badge">warning</span> {counts[name].toLocaleString('en')}{' '}
          {counts[name] === 1 ? 'entity' : 'entities'} of class <code>{name}</code> kept as text: no class file
          describes it (add <code>Classes/{name}.jclass</code> to edit their fields).
        </li>
      ))}
    </ul>
  );
}
