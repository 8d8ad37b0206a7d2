// What a change link opened did: the changes applied and, in plain words,
// each entity it could not change (its file changed since the link was
// made); or, where its world is not open, which world it needs, with a way
// to open it.
import { canPickFolder } from '../state/folders.js';
import { changeReport, closeChangeReport, openChangeLink, openFolderForLink } from '../state/changeLink.js';
import { plural } from '../lib/plural.js';
import { status, worldName } from '../state/world.js';

function Problems({ items, title }) {
  if (items.length === 0) return null;
  return (
    <>
      <p role="alert">{title}</p>
      <ul class="change-problems">
        {items.map(({ path, words }) => (
          <li key={path}>
            <code>{path}</code>: {words}
          </li>
        ))}
      </ul>
    </>
  );
}

export function ChangeLinkPanel() {
  const r = changeReport.value;
  if (!r) return null;
  const other = status.value === 'ready' && worldName.value && worldName.value !== r.world;
  return (
    <section class="share change-link" aria-label="Opened change link">
      {r.needs ? (
        <p role="alert">
          This link holds {plural(r.count, 'change')} to the world <strong>{r.world || '(unnamed)'}</strong>
          {other ? (
            <>
              , not to <strong>{worldName.value}</strong>, which is open
            </>
          ) : null}
          . Open that world, then apply the link.
        </p>
      ) : (
        <p>
          Applied {plural(r.applied, 'change')} from the link to <strong>{r.world}</strong>: they are pending, one undo step.
        </p>
      )}
      <Problems
        items={r.conflicts}
        title={`${plural(r.conflicts.length, 'entity', 'entities')} changed since the link was made, left as ${r.conflicts.length === 1 ? 'it is' : 'they are'}:`}
      />
      <Problems items={r.failed} title={`${plural(r.failed.length, 'change')} the engine refused:`} />
      {r.needs && canPickFolder() && (
        <button type="button" onClick={openFolderForLink}>
          Open folder…
        </button>
      )}
      {r.needs && status.value === 'ready' && (
        <button type="button" onClick={() => openChangeLink(r.text, { anyWorld: true })}>
          Apply to {worldName.value ? `“${worldName.value}”` : 'the open world'}
        </button>
      )}
      <button type="button" class="small" onClick={closeChangeReport}>
        Close
      </button>
    </section>
  );
}
