// A field of a type this inspector has no editor for: its value as text,
// read-only, so a class from a newer engine still shows.
export function ReadOnlyField({ id, label, type, value }) {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="text" value={text} readOnly title={`${type}: no editor for this type`} />
    </div>
  );
}
