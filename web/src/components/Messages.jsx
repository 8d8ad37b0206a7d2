// The last error (an alert the user dismisses; for a shared link that could
// not be opened, with the way on: the sample), how many files of the open
// world failed to load, and the last notice.
import { failedFiles } from '../state/failed.js';
import { dismissError, errorMessage, notice } from '../state/messages.js';
import { openSample } from '../state/open.js';
import { linkProblem } from '../state/share.js';
import { busy } from '../state/world.js';

export function Messages() {
  const failed = failedFiles.value.length;
  return (
    <div class="messages">
      {errorMessage.value && (
        <div class="error-banner" role="alert">
          <span>{errorMessage.value}</span>
          <span class="actions">
            {linkProblem.value && (
              <button type="button" class="small" onClick={openSample} disabled={busy.value}>
                Open the sample
              </button>
            )}
            <button type="button" class="link" onClick={dismissError}>
              Dismiss
            </button>
          </span>
        </div>
      )}
      {failed > 0 && (
        <p class="failed-banner" role="note" aria-label="Files that failed to load">
          {failed.toLocaleString('en')} {failed === 1 ? 'file' : 'files'} failed to load: they are left as they are; see{' '}
          <button type="button" class="link" onClick={showDiagnostics}>
            Diagnostics
          </button>
          .
        </p>
      )}
      <div class="notice" role="status">
        {notice.value}
      </div>
    </div>
  );
}

function showDiagnostics() {
  const section = document.getElementById('diagnostics');
  section?.scrollIntoView({ block: 'nearest' });
  section?.focus();
}
