// A labelled text input that keeps what the user types until it is
// committed (Enter or leaving the field), has it checked by `check` (text ->
// promise of { value } or { error }), and shows the error next to it, the
// typed text kept. Escape, or Ctrl+Z, puts back the current value; with
// nothing typed, Ctrl+Z goes on to the editor's undo (App).
import { useEffect, useRef, useState } from 'preact/hooks';
import { fieldErrors, showFieldError } from '../state/selection.js';
import { Field, inputProps } from './Field.jsx';

function isUndo(e) {
  return (e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z';
}

/**
 * What typing into a field's input keeps: `draft` (the typed text, null
 * when it shows the value), `setDraft`, and `commit(text)`, which has the
 * text checked and committed (an error shown under `errorKey`, the text
 * kept). A new value from the engine replaces a draft that was committed.
 */
export function useDraft({ value, check, onCommit, errorKey }) {
  const [draft, setDraft] = useState(null);
  const committing = useRef(false);
  const error = fieldErrors.value[errorKey];

  useEffect(() => {
    if (!committing.current) setDraft(null);
  }, [value]);

  async function commit(text) {
    if (text === null || text === value) {
      setDraft(null);
      if (error) showFieldError(errorKey, null);
      return;
    }
    committing.current = true;
    try {
      const checked = await check(text);
      if (checked.error) {
        showFieldError(errorKey, checked.error);
        return;
      }
      await onCommit(checked.value);
    } finally {
      committing.current = false;
    }
    if (!fieldErrors.peek()[errorKey]) setDraft(null);
  }

  return { draft, setDraft, commit };
}

// The keys every typed field shares: Enter commits, Escape (or Ctrl+Z with
// text typed) puts back the value.
export function onDraftKey(e, { draft, setDraft, commit }, errorKey) {
  if (e.key === 'Enter') {
    e.preventDefault();
    commit(e.currentTarget.value);
  } else if (e.key === 'Escape' || (isUndo(e) && draft !== null)) {
    e.preventDefault();
    e.stopPropagation();
    setDraft(null);
    showFieldError(errorKey, null);
  }
}

export function TextField({ id, label, value, check, onCommit, errorKey, disabled, placeholder, inputMode }) {
  const typed = useDraft({ value, check, onCommit, errorKey });
  const { draft, setDraft, commit } = typed;

  return (
    <Field id={id} errorKey={errorKey}>
      <label for={id}>{label}</label>
      <input
        {...inputProps(id, errorKey, disabled)}
        type="text"
        inputMode={inputMode}
        spellcheck={false}
        autocomplete="off"
        placeholder={placeholder}
        value={draft ?? value}
        onInput={(e) => setDraft(e.currentTarget.value)}
        onChange={(e) => commit(e.currentTarget.value)}
        onKeyDown={(e) => onDraftKey(e, typed, errorKey)}
      />
    </Field>
  );
}
