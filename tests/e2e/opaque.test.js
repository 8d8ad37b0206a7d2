// Entities of a class this build does not know (opaque entities) in the
// inspector: listed, their keys shown read-only as kept text, marked as such;
// moving one saves only its position line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const GRUNT = '0x0000000200000001';

test('an entity of an unknown class shows its kept keys read-only and can be moved', async () => {
  const dir = copyWorld(join(assets, 'opaque_world'));
  const path = join(dir, 'Entities', '8589934593.jasset');
  const before = readFileSync(path, 'utf8');
  const page = await ui.openFolder(env, dir);
  await ui.selectEntity(page, GRUNT);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await inspector.getByText('class unknown to this build').waitFor();
  const kept = inspector.getByRole('group', { name: 'Grunt keys, kept as text' });
  assert.equal(await kept.locator('dt').first().textContent(), 'health');
  assert.equal(await kept.locator('dd').first().textContent(), '100');
  assert.equal(await kept.getByRole('textbox').count(), 0, 'kept keys are not editable');

  await ui.commit(page, 'Position X', '7');
  await ui.waitUnsaved(page, GRUNT);
  await ui.saveAndWait(page, /^Saved 1 file and deleted 0 files/);
  const lines = (text) => text.split('\n');
  const after = lines(readFileSync(path, 'utf8'));
  const at = after.indexOf('; position') + 1;
  assert.equal(after[at], '7 0 -2.5');
  assert.deepEqual(after.toSpliced(at, 1), lines(before).toSpliced(at, 1), 'only the position changed');
  await ui.closeWithoutErrors(page);
});

test('Diagnostics says once per unknown class how many entities are kept as text', async () => {
  const page = await ui.openFolder(env, copyWorld(join(assets, 'opaque_world')));
  const diagnostics = page.getByRole('region', { name: 'Diagnostics' });
  await diagnostics.getByText('Every file loaded.').waitFor();
  const kept = diagnostics.getByRole('list', { name: 'Classes unknown to this build' });
  const rows = await kept.getByRole('listitem').allTextContents();
  assert.deepEqual(rows.map((row) => row.replace(/\s+/g, ' ').trim()).sort(), [
    'warning 1 entity of class Door kept as text: no class file describes it (add Classes/Door.jclass to edit their fields).',
    'warning 2 entities of class Grunt kept as text: no class file describes it (add Classes/Grunt.jclass to edit their fields).',
  ]);
  await ui.closeWithoutErrors(page);
});

test('Diagnostics names no class when every class is described', async () => {
  const page = await ui.openFolder(env, copyWorld(join(assets, 'class_world')));
  const diagnostics = page.getByRole('region', { name: 'Diagnostics' });
  await diagnostics.getByText('Every file loaded.').waitFor();
  assert.equal(await diagnostics.getByRole('list', { name: 'Classes unknown to this build' }).count(), 0);
  await ui.closeWithoutErrors(page);
});
