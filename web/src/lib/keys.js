// Keyboard helpers shared by the inspector's own shortcuts.

/** Whether `el` takes typed text (so a plain key there is typing, not a shortcut). */
export function isTyping(el) {
  if (!el || typeof el.closest !== 'function') return false;
  if (el.isContentEditable) return true;
  const field = el.closest('textarea, select, input');
  if (!field) return false;
  return field.tagName !== 'INPUT' || !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'color', 'range'].includes(field.type);
}
