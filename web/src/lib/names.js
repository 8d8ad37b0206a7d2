// An entity's name: the text the list, the tooltips, the inspector's heading
// and the 3D view's labels show for it beside its ID (or instead of it, in a
// label). The one rule for all of them; the engine worker applies it
// (engine/operations.js) and the page reads the table's `names` column.

/**
 * The field that names the entities of a class of fields `schema` ([{
 * name, type }], or undefined for a class not known): its `display_name` or
 * `name` string field, else its first string field; null if it has none.
 */
export function nameField(schema = []) {
  const strings = schema.filter((f) => f.type === 'string').map((f) => f.name);
  return strings.find((name) => name === 'display_name') ?? strings.find((name) => name === 'name') ?? strings[0] ?? null;
}
