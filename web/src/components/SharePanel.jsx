// The link made by Share, its length, and a warning when chat apps may cut
// it; for a level too big for a link, a snapshot file to download.
import { CHAT_LIMIT, closeShare, downloadSnapshot, shared } from '../state/share.js';

export function SharePanel() {
  const s = shared.value;
  if (!s) return null;
  const length = s.length.toLocaleString('en');
  return (
    <section class="share" aria-label="Share link">
      {s.tooLong ? (
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
            Link
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
    </section>
  );
}
