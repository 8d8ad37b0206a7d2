// The outliner and the reference picker in Firefox, on the sample served by
// the local server: subtrees closed and opened by the arrow and by
// keyboard, a drag that puts an entity under another (its events sent to
// the rows: see below), and Pick then a click in the list that sets a
// Prop's parent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ff from './firefox.js';
import { until } from './worldServer.js';

const env = ff.useFirefox();
const LIGHT = '0x77a31d7500000002'; // a Light at the top
const INERT = '0x77a31d7500000005'; // an Inert at the top: 5 <- 6 <- 7
const PROP6 = '0x77a31d7500000006';
const PROP7 = '0x77a31d7500000007';

const attribute = (page, id, name) => page.$eval(`#entity-${id}`, (el, n) => el.getAttribute(n), name);
const shown = (page, id) => page.$(`#entity-${id}`).then((el) => el !== null);
const parentValue = (page) => page.$eval('.inspector .ref-combo input', (el) => el.value);
const waitLevel = (page, id, level) =>
  until(page, ([i, l]) => document.getElementById(`entity-${i}`)?.getAttribute('aria-level') === l, [id, level], {
    what: `${id} at level ${level}`,
  });

test('Firefox: the arrow and Left/Right close and open a subtree', async () => {
  const { page } = await ff.openServed(env.browser);
  assert.equal(await attribute(page, PROP7, 'aria-level'), '3');
  await page.click(`#entity-${INERT} .twisty`);
  await until(page, (id) => !document.getElementById(`entity-${id}`), PROP6, { what: 'the subtree closed' });
  assert.equal(await attribute(page, INERT, 'aria-expanded'), 'false');

  await ff.selectEntity(page, INERT);
  await page.keyboard.press('ArrowRight');
  await until(page, (id) => !!document.getElementById(`entity-${id}`), PROP6, { what: 'the subtree open' });
  await page.keyboard.press('ArrowRight');
  await ff.waitInspected(page, PROP6);
  await page.keyboard.press('ArrowLeft');
  await until(page, (id) => !document.getElementById(`entity-${id}`), PROP7, { what: "PROP6's subtree closed" });
  await page.keyboard.press('ArrowLeft');
  await ff.waitInspected(page, INERT);
  await page.keyboard.press('ArrowRight');
  await ff.closeWithoutErrors(page);
});

test('Firefox: a drag puts an entity under another, and Pick then a click in the list sets a parent', async () => {
  const { page } = await ff.openServed(env.browser);
  await ff.selectEntity(page, PROP7);
  // WebDriver BiDi does not start Firefox's native drag from pointer
  // actions (w3c/webdriver-bidi#487): the drag's events are sent to the
  // rows, with a DataTransfer of Firefox's own, in the order a drag has.
  await page.evaluate(
    (source, target) => {
      const dataTransfer = new DataTransfer();
      const send = (id, type) =>
        document.getElementById(`entity-${id}`).dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true }));
      send(source, 'dragstart');
      send(target, 'dragenter');
      send(target, 'dragover');
      send(target, 'drop');
      send(source, 'dragend');
    },
    PROP7,
    LIGHT,
  );
  await waitLevel(page, PROP7, '2');
  assert.equal(await parentValue(page), LIGHT);
  assert.equal(await shown(page, PROP7), true);

  // The picker: Pick, then a click on INERT in the list.
  await ff.clickButton(page, 'Pick parent');
  await until(page, () => !!document.querySelector('[role=status][aria-label="Pick mode"]'), null, { what: 'pick mode' });
  await page.click(`#entity-${INERT}`);
  await until(page, (id) => document.querySelector('.inspector .ref-combo input').value === id, INERT, {
    what: 'the parent picked',
  });
  await waitLevel(page, PROP7, '2');
  assert.equal(await attribute(page, INERT, 'aria-expanded'), 'true');
  assert.equal(await page.$eval('.inspector h2 code', (el) => el.textContent.trim()), PROP7, 'the selection stays');
  await ff.closeWithoutErrors(page);
});
