// columns.js - how a table's string columns cross from the engine's worker
// (operations.js table) to the page (client.js): one text a column, not a
// string an entity. Copying 1,000,000 strings between threads took 0.4 s
// more than one text and its slices. IDs are ID_TEXT_LENGTH characters
// each (juliet-world's idsText); names and parents have SEPARATOR between
// two (a field's text never holds it: the engine's fieldTexts splits on
// it), a parent '' for none.
import { ID_TEXT_LENGTH, idsText } from 'juliet-world';

const SEPARATOR = '\0';

/** The texts of the columns: the IDs of `idWords` (World#rows) at `order`,
 * and `names` and `parents` (null: none), already in that order. */
export function columnTexts(idWords, order, names, parents) {
  return {
    idsText: idsText(idWords, order),
    namesText: names.join(SEPARATOR),
    parentsText: parents.map((id) => id ?? '').join(SEPARATOR),
  };
}

/** The columns back from their texts: { ids, names, parents }. */
export function columnsOf({ idsText: ids, namesText, parentsText }) {
  const n = ids.length / ID_TEXT_LENGTH;
  const out = { ids: new Array(n), names: [], parents: [] };
  for (let i = 0; i < n; i++) out.ids[i] = ids.slice(i * ID_TEXT_LENGTH, (i + 1) * ID_TEXT_LENGTH);
  if (n === 0) return out;
  out.names = namesText.split(SEPARATOR);
  out.parents = parentsText.split(SEPARATOR);
  for (let i = 0; i < n; i++) if (out.parents[i] === '') out.parents[i] = null;
  return out;
}
