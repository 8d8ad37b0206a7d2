// Pick mode (web/src/state/refPick.js) with the selection model and the
// in-process engine: a click on an entity in pick mode sets the reference
// through the field's edit path (one undo step) instead of selecting it;
// without the mode a click is the view's to select; selecting another
// entity ends the mode.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { setField } from '../../web/src/state/edits.js';
import { undoStack } from '../../web/src/state/history.js';
import { pickingFor, startPick } from '../../web/src/state/refPick.js';
import { select, selected, selectedId, takeClick } from '../../web/src/state/selection.js';
import { assets } from './helpers.js';
import { openWorld, until } from './models.js';

const BRUTE = '0x6e89010142120005'; // Enemy "Brute", target the first Pickup
const AMMO = '0x6e89010142120002'; // a Pickup

async function openGame() {
  await openWorld(join(assets, 'game_world'), 'game');
  await select(BRUTE);
}

test('in pick mode a click on an entity sets the reference, one undo step, and selects nothing', async () => {
  await openGame();
  startPick(BRUTE, 'target', 'Brute', (id) => setField('target', id));
  assert.equal(takeClick(AMMO), true);
  assert.equal(pickingFor.value, null, 'the mode ends');
  await until(() => selected.value.fields.target === AMMO, 'the target set');
  assert.equal(selectedId.value, BRUTE, 'the selection stays');
  assert.equal(undoStack.value.length, 1);
});

test('without pick mode a click is left to the view', async () => {
  await openGame();
  assert.equal(takeClick(AMMO), false);
});

test('selecting another entity ends pick mode', async () => {
  await openGame();
  startPick(BRUTE, 'target', 'Brute', (id) => setField('target', id));
  await select(AMMO);
  assert.equal(pickingFor.value, null);
  assert.equal(takeClick(BRUTE), false);
});
