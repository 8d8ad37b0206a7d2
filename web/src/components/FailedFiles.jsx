// The files that failed to load, as rows of the entity list (marked failed,
// with their diagnostic) and, for the one selected, in the inspector: where
// the problem is and the line it points at. Not editable: they are left as
// they are on disk.
import { failedFiles, selectFailure, shownFailure } from '../state/failed.js';
import { DiagnosticPlace, SourceExcerpt } from './Diagnostics.jsx';

const SHOWN = 200;

export function FailedFileRows() {
  const files = failedFiles.value;
  if (files.length === 0) return null;
  const shown = shownFailure.value?.path ?? null;
  const rows = files.slice(0, SHOWN);
  const at = rows.findIndex((f) => f.path === shown);

  function onKeyDown(event) {
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    selectFailure(rows[Math.max(0, Math.min(rows.length - 1, next))].path);
  }

  return (
    <div
      class="failed-rows"
      role="listbox"
      tabIndex={0}
      aria-label="Files that failed to load"
      aria-activedescendant={at >= 0 ? failedOptionId(at) : undefined}
      onKeyDown={onKeyDown}
    >
      {rows.map(({ path, diagnostic }, i) => (
        <div
          key={path}
          id={failedOptionId(i)}
          class={`row failed${path === shown ? ' selected' : ''}`}
          role="option"
          aria-selected={path === shown ? 'true' : 'false'}
          onClick={() => selectFailure(path)}
        >
          <span class="badge">failed</span>
          <span class="path">{path}</span>
          <span class="why">{diagnostic.message}</span>
        </div>
      ))}
      {files.length > SHOWN && <p class="muted">and {files.length - SHOWN} more in Diagnostics</p>}
    </div>
  );
}

function failedOptionId(index) {
  return `failed-${index}`;
}

// The inspector's view of the failed file selected.
export function FailedFile({ failure }) {
  const { path, diagnostic } = failure;
  return (
    <div class="failed-file">
      <header class="inspector-head">
        <h2>
          <span class="badge">failed</span> <code>{path}</code>
        </h2>
        <p class="muted">This file did not load. It is left as it is: fix it in a text editor, then open the world again.</p>
      </header>
      <p role="note" aria-label="Diagnostic">
        <DiagnosticPlace diagnostic={diagnostic} /> {diagnostic.message}
      </p>
      <SourceExcerpt diagnostic={diagnostic} />
    </div>
  );
}
