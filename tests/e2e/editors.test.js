// Browser tests of the field editors' checks: text typed into a field, the
// position or the Add entity dialog is judged by the engine, and a value it
// refuses shows the engine's message next to the field with nothing changed
// (no pending change, no undo step, the typed text kept). The conveniences
// of the page around it: an empty index or reference is none, and an ID may
// be typed (or searched) as the number of its file name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ui from './harness.js';

const env = ui.useInspector();

const inspector = (page) => page.getByRole('region', { name: 'Inspector' });

// The sample's first Prop (its parent is the sample's first Light).
async function firstProp(page) {
  await page.getByLabel('Filter by class').selectOption('Prop');
  await ui.entityOptions(page).first().click();
  await inspector(page).getByLabel('parent', { exact: true }).waitFor();
  return ui.selectedId(page);
}

test('a typed value the engine refuses shows its message and changes nothing', async () => {
  const page = await ui.openSample(env);
  const prop = await firstProp(page);

  const refused = [
    ['mesh_instance', '12a', 'unexpected character in whole number (column 3)'],
    ['mesh_instance', '-1', 'must be 0 or more'],
    ['density', 'heavy', 'expected a number'],
    ['density', ' 1.5x', 'unexpected character in number (column 5)'],
    ['velocity X', '1e99', 'number out of float32 range'],
    ['Position Y', 'up', 'expected a number'],
    ['parent', 'zz', 'expected 0x and hex digits'],
    ['parent', '0x12345', 'No entity 0x0000000000012345 in this world'],
  ];
  for (const [label, text, message] of refused) {
    await ui.commit(page, label, text);
    assert.equal(await ui.fieldError(page, label), message, `${label} = ${text}`);
    assert.equal(await inspector(page).getByLabel(label, { exact: true }).inputValue(), text, 'the typed text stays');
  }
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Undo' }).isDisabled(), true, 'no undo step');
  assert.doesNotMatch(await page.getByRole('treeitem', { name: new RegExp(`^${prop} `) }).getAttribute('aria-label'), /unsaved/);
  await ui.closeWithoutErrors(page);
});

test('an empty index or reference is none, and a reference may be typed as its file number', async () => {
  const page = await ui.openSample(env);
  const prop = await firstProp(page);
  const parent = inspector(page).getByLabel('parent', { exact: true });
  const light = await parent.inputValue();
  const meshInstance = await inspector(page).getByLabel('mesh_instance', { exact: true }).inputValue();

  await ui.commit(page, 'mesh_instance', '  ');
  await ui
    .pendingRegion(page)
    .getByText(`Entities/${BigInt(prop)}.jasset`)
    .waitFor();
  await ui.commit(page, 'parent', '');
  await page.getByRole('button', { name: `Go to ${light}` }).waitFor({ state: 'detached' });
  assert.equal(await parent.inputValue(), '');

  // Back as they were, the parent typed as the decimal name of its file:
  // the Prop holds the text of its file again, so nothing is pending.
  await ui.commit(page, 'parent', String(BigInt(light)));
  await page.getByRole('button', { name: `Go to ${light}` }).waitFor();
  assert.equal(await parent.inputValue(), light);
  await ui.commit(page, 'mesh_instance', meshInstance);
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();

  // The list's search takes the same file number.
  for (const text of [String(BigInt(prop)), `${BigInt(prop)}.jasset`]) {
    await page.getByLabel('Search by name or ID').fill(text);
    await ui.waitListed(page, 1);
    assert.deepEqual(await ui.visibleIds(page), [prop]);
  }
  await ui.closeWithoutErrors(page);
});

test('Add entity refuses a coordinate the engine refuses and keeps the dialog open', async () => {
  const page = await ui.openSample(env);
  const previous = await ui.inspectedId(page);

  const dialog = await ui.createInDialog(page, 'Light', { X: '1,5', Z: '-2' });
  await dialog.locator('#add-X-error').waitFor();
  assert.equal((await dialog.locator('#add-X-error').textContent()).trim(), 'unexpected character in number (column 2)');
  assert.equal(await dialog.isVisible(), true);
  await ui.pendingRegion(page).getByText('No unsaved changes.').waitFor();

  await dialog.getByLabel('X', { exact: true }).fill('1.5');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await ui.waitInspected(page, 'Light', previous);
  assert.equal(await inspector(page).getByLabel('Position X', { exact: true }).inputValue(), '1.5');
  assert.equal(await inspector(page).getByLabel('Position Z', { exact: true }).inputValue(), '-2');
  await ui.closeWithoutErrors(page);
});
