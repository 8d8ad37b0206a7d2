// The link made by Share, its length, where it opens, and a warning when
// chat apps may cut it; for a level too big for a link, a snapshot file to
// download. A link to this machine's own address says so, and how to make
// one others can open. Beside it, Share changes: a link of the pending
// edits alone, disabled with the reason when there are none.
import { changesUnavailable, shareChanges } from '../state/changeLink.js';
import { CHAT_LIMIT, closeShare, downloadSnapshot, shared } from '../state/share.js';

// Where each kind of share base was set, in the words of the panel.
const BASE_FROM = {
  run: 'this run’s --share-base',
  world: 'share_base in World settings',
  page: 'this page’s address',
};

// A value shown back to the user is cut to a line.
const shortened = (text) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

// Where the link opens, and the bases set but refused.
function OpensAt({ opensAt }) {
  const { base, from, ignored, onlyHere } = opensAt;
  return (
    <>
      {ignored.map(({ from: where, value, problem }) => (
        <p key={where} class="warning" role="note">
          {BASE_FROM[where]} is not used: {problem} (<code>{shortened(value)}</code>).
        </p>
      ))}
      {onlyHere ? (
        <p class="only-here" role="note">
          <strong>Opens only on this computer:</strong> the link points at this page’s address, <code>{new URL(base).host}</code>. For a
          link others can open, host the inspector where your team can reach it and set its address as <code>share_base</code> in World
          settings (saved with the world), or start with <code>npm start -- DIR --share-base URL</code>.
        </p>
      ) : (
        <p class="opens-at muted">
          Opens at <code>{shortened(base)}</code> ({BASE_FROM[from]})
        </p>
      )}
    </>
  );
}

// Share changes, or why it cannot now.
function ShareChanges() {
  const why = changesUnavailable();
  return (
    <p class="share-changes">
      <button
        type="button"
        onClick={shareChanges}
        disabled={why !== null}
        title="A link holding only the pending changes, to apply over another copy of this world"
      >
        Share changes
      </button>{' '}
      <span class="muted">{why ?? 'a short link of the pending changes only, for another copy of this world'}</span>
    </p>
  );
}

export function SharePanel() {
  const s = shared.value;
  if (!s) return null;
  const length = s.length.toLocaleString('en');
  return (
    <section class="share" aria-label={s.changes ? 'Change link' : 'Share link'}>
      {s.tooLong && s.changes ? (
        <p role="alert">
          These changes need a {length}-character link, more than a browser accepts: save them and share the world instead.
        </p>
      ) : s.tooLong ? (
        <p role="alert">
          This level needs a {length}-character link, more than a browser accepts. Share it as a snapshot file instead;{' '}
          <em>Open snapshot file</em> reads it.{' '}
          <button type="button" onClick={downloadSnapshot}>
            Download snapshot
          </button>
        </p>
      ) : (
        <>
          <label>
            {s.changes ? 'Link to the changes' : 'Link'}
            <input type="text" readOnly value={s.url} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <span class="muted">
            {length} characters{s.copied ? ', copied to the clipboard' : ''}
          </span>
          {s.length > CHAT_LIMIT && (
            <p class="warning" role="note">
              Links over {CHAT_LIMIT.toLocaleString('en')} characters may be cut by chat apps.
            </p>
          )}
        </>
      )}
      <button type="button" class="small" onClick={closeShare}>
        Close
      </button>
      <OpensAt opensAt={s.opensAt} />
      {!s.changes && <ShareChanges />}
    </section>
  );
}
