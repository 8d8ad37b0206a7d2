// Class and field names that are also names of Object.prototype
// (__proto__, constructor, hasOwnProperty, toString, valueOf) in the
// inspector: a world of such class files opens, its entities are inspected
// and edited field by field, alone and together, and saved, with no page
// error.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { entityFile, tempDir } from '../shared/fixtures.js';
import * as ui from './harness.js';

const env = ui.useInspector();
const PROTO = '0x5e7a000000000001'; // of class __proto__
const CTOR = '0x5e7a000000000002'; // of class constructor, referring to PROTO

function entityText(id, className, keys) {
  const lines = [
    'asset_type',
    'entity_instance',
    'id',
    id,
    'class',
    className,
    'version',
    '1',
    'class_version',
    '1',
    'position',
    '1 2 3',
    ...keys,
  ];
  return lines.map((l, i) => (i % 2 ? `${l}\n` : `; ${l}\n`)).join('');
}

// Class __proto__ with fields __proto__, constructor, hasOwnProperty and
// toString; class constructor with a reference valueOf, hasOwnProperty and
// toString.
function writeWorld() {
  const dir = join(tempDir('proto'), 'world');
  mkdirSync(join(dir, 'Classes'), { recursive: true });
  mkdirSync(join(dir, 'Entities'));
  writeFileSync(
    join(dir, 'Classes', '__proto__.jclass'),
    '; asset_type\nclass\n; name\n__proto__\n; field __proto__\nf32 1\n; field constructor\nstring plain\n' +
      '; field hasOwnProperty\ni32 3\n; field toString\nbool true\n',
  );
  writeFileSync(
    join(dir, 'Classes', 'constructor.jclass'),
    '; asset_type\nclass\n; name\nconstructor\n; field valueOf\nentity_ref none\n; field hasOwnProperty\ni32 3\n' +
      '; field toString\nbool true\n',
  );
  writeFileSync(
    join(dir, entityFile(PROTO)),
    entityText(PROTO, '__proto__', ['__proto__', '2.5', 'constructor', 'made', 'hasOwnProperty', '7', 'toString', 'false']),
  );
  writeFileSync(
    join(dir, entityFile(CTOR)),
    entityText(CTOR, 'constructor', ['valueOf', PROTO, 'hasOwnProperty', '7', 'toString', 'false']),
  );
  return dir;
}

test('an entity whose class and fields are named like Object.prototype members is inspected and edited', async () => {
  const dir = writeWorld();
  const page = await ui.openFolder(env, dir);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  const classFilter = page.getByLabel('Filter by class');
  assert.deepEqual((await classFilter.locator('option').allTextContents()).slice(1).sort(), ['__proto__ (1)', 'constructor (1)']);

  await ui.selectEntity(page, PROTO);
  await inspector.getByRole('group', { name: '__proto__ fields' }).waitFor();
  const field = (name) => inspector.getByLabel(name, { exact: true });
  assert.equal(await field('__proto__').inputValue(), '2.5');
  assert.equal(await field('constructor').inputValue(), 'made');
  assert.equal(await field('hasOwnProperty').inputValue(), '7');
  assert.equal(await field('toString').isChecked(), false);
  // No field starts out refused (an error keyed by its name).
  assert.equal(await inspector.locator('[aria-invalid="true"]').count(), 0);

  await ui.commit(page, '__proto__', '4.5');
  await ui.waitUnsaved(page, PROTO);
  await ui.commit(page, 'constructor', 'changed');
  await page.waitForFunction(() => document.getElementById('field-constructor')?.value === 'changed');
  await field('toString').check();
  await page.waitForFunction(() => document.getElementById('field-toString')?.checked === true);
  assert.equal(await inspector.locator('[aria-invalid="true"]').count(), 0);

  // The reference named valueOf points at the first entity.
  await ui.selectEntity(page, CTOR);
  await inspector.getByRole('group', { name: 'constructor fields' }).waitFor();
  assert.equal(await field('valueOf').inputValue(), PROTO);
  await inspector.getByRole('button', { name: `Go to ${PROTO}` }).waitFor();

  await ui.saveAndWait(page, /^Saved 1 file/);
  const saved = readFileSync(join(dir, entityFile(PROTO)), 'utf8');
  assert.match(saved, /\n; __proto__\n4\.5\n/);
  assert.match(saved, /\n; constructor\n"?changed"?\n/);
  assert.match(saved, /\n; toString\ntrue\n/);
  await ui.closeWithoutErrors(page);
});

test('entities of classes named like Object.prototype members are edited together', async () => {
  const dir = writeWorld();
  const page = await ui.openFolder(env, dir);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await ui.selectEntity(page, PROTO);
  await ui.option(page, CTOR).click({ modifiers: ['ControlOrMeta'] });
  await inspector.getByRole('heading', { name: '2 entities selected' }).waitFor();
  assert.equal((await inspector.locator('.inspector-head p').textContent()).trim(), '1 __proto__, 1 constructor');
  await inspector.getByRole('group', { name: 'Fields they all have' }).waitFor();
  // The value both hold shows once the engine has read it.
  await page.waitForFunction(() => document.getElementById('field-hasOwnProperty')?.value === '7');
  assert.equal(await inspector.locator('[aria-invalid="true"]').count(), 0);
  await ui.commit(page, 'hasOwnProperty', '9');
  await ui.waitUnsaved(page, PROTO);
  await ui.waitUnsaved(page, CTOR);
  await ui.saveAndWait(page, /^Saved 2 files/);
  for (const id of [PROTO, CTOR]) {
    assert.match(readFileSync(join(dir, entityFile(id)), 'utf8'), /\n; hasOwnProperty\n9\n/);
  }
  await ui.closeWithoutErrors(page);
});
