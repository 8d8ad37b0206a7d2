// The last error (an alert the user dismisses) and the last notice.
import { dismissError, errorMessage, notice } from '../state/messages.js';

export function Messages() {
  return (
    <div class="messages">
      {errorMessage.value && (
        <div class="error-banner" role="alert">
          <span>{errorMessage.value}</span>
          <button type="button" class="link" onClick={dismissError}>
            Dismiss
          </button>
        </div>
      )}
      <div class="notice" role="status">
        {notice.value}
      </div>
    </div>
  );
}
