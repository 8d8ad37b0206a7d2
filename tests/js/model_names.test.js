// Entities' names (web/src/lib/names.js) in the table with the in-process
// engine: read at open, kept up to date by every row update, and found by
// the list's search with the IDs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { nameField } from '../../web/src/lib/names.js';
import { duplicateSelection } from '../../web/src/state/copies.js';
import { applyDiskVersions } from '../../web/src/state/diskFiles.js';
import { setField } from '../../web/src/state/edits.js';
import { undo } from '../../web/src/state/history.js';
import { search, visibleRows } from '../../web/src/state/listView.js';
import { openWorldFiles } from '../../web/src/state/open.js';
import { select, selected } from '../../web/src/state/selection.js';
import { table } from '../../web/src/state/table.js';
import { assets } from './helpers.js';
import { openWorld, textOf, worldFiles } from './models.js';

// assets/game_world: two Pickups (no string field), then the Enemies
// Grunt, Grunt and Brute.
const gameWorld = join(assets, 'game_world');
const PICKUP = '0x6e89010142120001';
const GRUNT = '0x6e89010142120003';
const BRUTE = '0x6e89010142120005';
const BRUTE_FILE = 'Entities/7964898520896503813.jasset';

const nameOf = (id) => table.names[table.rowOf.get(id)];
const listed = (text) => {
  search.value = text;
  const ids = Array.from(visibleRows.value, (row) => table.ids[row]);
  search.value = '';
  return ids;
};

test("a class's name field is display_name, else name, else its first string field", () => {
  const field = (name, type = 'string') => ({ name, type });
  assert.equal(nameField([field('title'), field('name'), field('display_name')]), 'display_name');
  assert.equal(nameField([field('title'), field('name')]), 'name');
  assert.equal(nameField([field('health', 'f32'), field('title'), field('tag')]), 'title');
  assert.equal(nameField([field('name', 'enum')]), null, 'a name that is not a string does not name');
  assert.equal(nameField(undefined), null);
});

test('each entity has its name in the table at open, an empty one for a class without a string field', async () => {
  await openWorld(gameWorld, 'game_world');
  assert.deepEqual(table.names, ['', '', 'Grunt', 'Grunt', 'Brute']);
  await select(BRUTE);
  assert.equal(selected.value.name, 'Brute', 'the inspector has it too');
});

test('entities whose files list out of ID order are listed by ID, each row with its own name', async () => {
  // The two Pickups as 0x0000000200000001 and 0x0000000300000001: their
  // files, 8589934593.jasset and 12884901889.jasset, list around the others'.
  const renamed = { '0x6e89010142120001': 0x200000001, '0x6e89010142120002': 0x300000001 };
  const files = worldFiles(gameWorld).map((file) => {
    const text = textOf(file.bytes);
    const id = Object.keys(renamed).find((old) => text.includes(`; id\n${old}\n`));
    if (!id) return file;
    const next = `0x${renamed[id].toString(16).padStart(16, '0')}`;
    return { path: `Entities/${renamed[id]}.jasset`, bytes: new TextEncoder().encode(text.replace(id, next)) };
  });
  await openWorldFiles('game_world', files);
  assert.deepEqual([...table.ids], ['0x0000000200000001', '0x0000000300000001', GRUNT, '0x6e89010142120004', BRUTE]);
  assert.deepEqual(table.names, ['', '', 'Grunt', 'Grunt', 'Brute']);
});

test('an edit of the name field renames the row, and undo names it back', async () => {
  await openWorld(gameWorld, 'game_world');
  await select(BRUTE);
  await setField('name', 'Big Brute');
  assert.equal(nameOf(BRUTE), 'Big Brute');
  assert.equal(selected.value.name, 'Big Brute');
  await undo();
  assert.equal(nameOf(BRUTE), 'Brute');
  assert.equal(selected.value.name, 'Brute');
});

test('a file changed on disk renames its row; a duplicate has the name of its original', async () => {
  await openWorld(gameWorld, 'game_world');
  const text = readFileSync(join(gameWorld, BRUTE_FILE), 'utf8').replace('\nBrute\n', '\nBrute the Second\n');
  await applyDiskVersions([{ path: BRUTE_FILE, seq: 2, bytes: new Uint8Array(Buffer.from(text)) }]);
  assert.equal(nameOf(BRUTE), 'Brute the Second');

  await select(GRUNT);
  await duplicateSelection();
  assert.notEqual(selected.value.id, GRUNT);
  assert.equal(nameOf(selected.value.id), 'Grunt');
});

test('the search finds names case-insensitively anywhere in them, and IDs as before', async () => {
  await openWorld(gameWorld, 'game_world');
  assert.deepEqual(listed('rut'), [BRUTE]);
  assert.deepEqual(listed(' GRUNT '), [GRUNT, '0x6e89010142120004']);
  assert.deepEqual(listed('2120001'), [PICKUP], 'hex digits anywhere in the ID');
  assert.deepEqual(listed('7964898520896503809.jasset'), [PICKUP], 'a file name');
  assert.deepEqual(listed('zebra'), []);
});

test('while the search looks for a name, a renamed entity leaves or joins the list', async () => {
  await openWorld(gameWorld, 'game_world');
  await select(BRUTE);
  search.value = 'brute';
  assert.equal(visibleRows.value.length, 1);
  await setField('name', 'Ogre');
  assert.equal(visibleRows.value.length, 0);
  await undo();
  assert.equal(visibleRows.value.length, 1);
  search.value = '';
});
