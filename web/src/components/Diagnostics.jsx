// Files that failed to load: path, line, column and message. Those files are
// left as they are on disk.
import { diagnostics } from '../state/world.js';

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
    </section>
  );
}
