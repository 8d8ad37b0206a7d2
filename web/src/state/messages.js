// What the inspector tells the user: the last failure (an alert that stays
// until dismissed) and the last success (e.g. the save report).
import { signal } from '@preact/signals';

export const errorMessage = signal(null);
export const notice = signal(null);

// Shows `message` as the error, followed by the error's own message.
export function fail(message, err) {
  errorMessage.value = err ? `${message}: ${err.message ?? err}` : message;
}

export function dismissError() {
  errorMessage.value = null;
}
