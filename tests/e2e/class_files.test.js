// A world whose classes exist only as class files (Classes/<Name>.jclass),
// opened as a folder in the page or served by the local server: its
// classes come from the files, their fields are edited like a compiled
// class's, and the class files are never written.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld } from '../shared/fixtures.js';
import * as ui from './harness.js';
import { serveWorld } from './worldServer.js';

const env = ui.useInspector();
const GHOUL = '0x4a11000000000001';

// Edits the Ghoul's health in `page` (open on a copy of class_world in
// `dir`), saves, and checks the file on disk and the class file untouched.
async function editAGhoul(page, dir) {
  const classFile = join(dir, 'Classes', 'Ghoul.jclass');
  const classText = readFileSync(classFile);
  await ui.selectEntity(page, GHOUL);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await inspector.getByRole('group', { name: 'Ghoul fields' }).waitFor();
  assert.equal(await inspector.getByText('class unknown to this build').count(), 0);
  assert.equal(await page.getByLabel('health', { exact: true }).inputValue(), '75.5');

  await ui.commit(page, 'health', '12');
  await ui.waitUnsaved(page, GHOUL);
  await ui.saveAndWait(page, /^Saved 1 file/);
  const saved = readFileSync(join(dir, 'Entities', '5337047033410748417.jasset'), 'utf8');
  assert.match(saved, /\n; health\n12\n/);
  assert.deepEqual(readFileSync(classFile), classText, 'the class file is never written');
  await ui.closeWithoutErrors(page);
}

test('a folder with class files opens with those classes, editable field by field', async () => {
  const dir = copyWorld(join(assets, 'class_world'));
  await editAGhoul(await ui.openFolder(env, dir), dir);
});

test('a served world with class files opens with those classes, editable field by field', async () => {
  const dir = copyWorld(join(assets, 'class_world'));
  const server = await serveWorld(dir);
  const page = await ui.newPage(env.browser);
  await page.goto(server.url);
  await ui.waitOpen(page);
  await editAGhoul(page, dir);
});
