// Browser tests of the inspector's look: light and dark themes following
// the system setting, both with WCAG AA contrast (axe-core's check); at
// 1024x700 a toolbar on one row whose controls keep their names and
// tooltips, a one-line world header cut short with its full text as a
// tooltip, and empty panels saying so in one line at their usual height
// (the map does not jump at the first edit). Screenshots at 1440x900
// and 1024x700 in both themes go to tests/e2e/artifacts/.
import assert from 'node:assert/strict';
import { readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import * as ui from './harness.js';

const env = ui.useInspector();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const SMALL = { width: 1024, height: 700 };
const LARGE = { width: 1440, height: 900 };

// A page in colour scheme `scheme` with the sample open.
async function openIn(scheme, viewport) {
  const context = await env.browser.newContext({ viewport, colorScheme: scheme });
  return ui.openSample(env, { context });
}

// Every colour-contrast failure axe-core finds on the page, as text. (Run
// through the debugger: the page's Content Security Policy refuses scripts
// added to it.)
async function contrastFailures(page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: ['color-contrast'] }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`));
}

const colors = (page) =>
  page.evaluate(() => {
    const of = (sel) => getComputedStyle(document.querySelector(sel));
    return { page: of(':root').backgroundColor, text: of('body').color, toolbar: of('.toolbar').backgroundColor };
  });

test('the theme follows the system setting, light or dark, with AA contrast in both', async () => {
  const seen = {};
  for (const scheme of ['light', 'dark']) {
    const page = await openIn(scheme, LARGE);
    seen[scheme] = await colors(page);
    // Something selected, something pending, place mode: more of the page is drawn.
    const [id] = await ui.visibleIds(page);
    await ui.editPosition(page, id, 'X', '1.5');
    await page.getByRole('button', { name: 'Add entity' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Place on map' }).click();
    await page.getByRole('status', { name: 'Place mode' }).waitFor();
    await ui.screenshot(page, `layout-1440-${scheme}`);
    // The world's header has room for all it says.
    assert.equal(await page.locator('.toolbar .world-name').evaluate((el) => el.scrollWidth > el.clientWidth), false, 'header cut short');
    assert.deepEqual(await contrastFailures(page), [], `${scheme}: contrast`);
    await ui.closeWithoutErrors(page);
  }
  assert.notEqual(seen.light.page, seen.dark.page, 'the page background changes');
  assert.notEqual(seen.light.text, seen.dark.text, 'the text colour changes');
  assert.notEqual(seen.light.toolbar, seen.dark.toolbar, 'the toolbar changes');
});

test('at 1024x700 the toolbar is one row, each control named with a tooltip; empty panels say so in one line, and keep their height', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await openIn(scheme, SMALL);
    const toolbar = page.getByRole('banner');
    const controls = toolbar.locator('button, label.button');
    const boxes = await controls.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute('aria-label') ?? el.textContent;
        return { top: r.top, bottom: r.bottom, right: r.right, title: el.title, text: el.innerText.trim(), name };
      }),
    );
    assert.ok(boxes.length >= 11, `${boxes.length} controls`);
    const middle = (b) => (b.top + b.bottom) / 2;
    for (const b of boxes) {
      assert.ok(Math.abs(middle(b) - middle(boxes[0])) < 2, `one row: ${JSON.stringify(boxes)}`);
      assert.ok(b.right <= SMALL.width, 'inside the window');
      assert.ok(b.title, 'a tooltip');
      // A short label's words stay part of its name (WCAG 2.5.3, label in
      // name; a symbol such as `?` is not a word).
      if (/\p{L}/u.test(b.text)) assert.ok(b.name.toLowerCase().includes(b.text.toLowerCase()), `"${b.text}" is part of "${b.name}"`);
    }
    // Their full names stay their accessible names at this width.
    for (const name of [
      'Open sample',
      'Open folder',
      'Save',
      'Undo',
      'Redo',
      'Share',
      'Add entity',
      'Delete entity',
      'Keyboard shortcuts',
    ]) {
      await toolbar.getByRole('button', { name, exact: true }).waitFor();
    }
    await page.getByLabel('Upload folder', { exact: true }).waitFor({ state: 'attached' });
    await page.getByLabel('Open snapshot file', { exact: true }).waitFor({ state: 'attached' });

    // Nothing pending, nothing to diagnose: each panel says so on its heading's line.
    for (const name of ['Pending changes', 'Diagnostics']) {
      const [heading, text] = await page
        .getByRole('region', { name })
        .locator(':scope > h2, :scope > p')
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom));
      assert.ok(Math.abs(heading - text) < 4, `${name}: heading and text on one line (${heading}, ${text})`);
    }
    const before = (await page.getByRole('img', { name: 'World map' }).boundingBox()).height;
    await ui.screenshot(page, `layout-1024-${scheme}`);
    assert.deepEqual(await contrastFailures(page), [], `${scheme}: contrast`);

    // Once there is something to list, the panels list it in the same
    // height: the map above does not jump.
    const [id] = await ui.visibleIds(page);
    await ui.editPosition(page, id, 'X', '1.5');
    await page.getByRole('region', { name: 'Pending changes' }).getByRole('listitem').first().waitFor();
    assert.equal((await page.getByRole('img', { name: 'World map' }).boundingBox()).height, before);
    await ui.screenshot(page, `layout-1024-${scheme}-edited`);
    await ui.closeWithoutErrors(page);
  }
});

test('the world header is one line: a long name is cut short, its full text a tooltip', async () => {
  const name = 'a_world_with_a_long_name_that_cannot_fit_in_the_toolbar_of_a_small_window';
  const copy = ui.copySample();
  const dir = join(dirname(copy), name);
  renameSync(copy, dir);
  const page = await ui.openFolder(env, dir, { viewport: SMALL });
  const header = page.locator('.toolbar .world-name');
  await header.getByText(name).waitFor();
  const box = await header.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    line: parseFloat(getComputedStyle(el).lineHeight),
    cut: el.scrollWidth > el.clientWidth,
  }));
  assert.ok(box.cut, 'cut short');
  assert.ok(box.height < box.line * 1.5, `one line: ${JSON.stringify(box)}`);
  assert.match(await header.getAttribute('title'), new RegExp(`^${name} · folder on disk`));
  await ui.closeWithoutErrors(page);
});
