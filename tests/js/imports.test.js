// The inspector's modules import one way: no import cycle in web/src (a
// model that reacts to another registers a listener from main.jsx instead of
// importing it back). Reads the import statements of every .js and .jsx file
// and looks for a cycle among the relative ones.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

import { repo, tempDir } from './helpers.js';

// `import … from '…'`, `import '…'`, `export … from '…'` and `import('…')`.
const IMPORT = /(?:^|[^\w.$])(?:import|export)\s*(?:[\w$*{},\s]*?\s*from\s*)?\(?\s*(['"])([^'"\n]+)\1/g;

function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.jsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

// The files a source file imports by a relative path, resolved.
function importsOf(file) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  const out = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[2];
    if (spec.startsWith('./') || spec.startsWith('../')) out.push(resolve(dirname(file), spec));
  }
  return out;
}

/**
 * The import cycles among the .js/.jsx files under `root`, each as a list of
 * paths relative to `root` that starts and ends with the same file; [] if
 * there are none. Each cycle is reported once, from where the search met it.
 */
export function findCycles(root) {
  const files = sourceFiles(root);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((to) => files.includes(to))]));
  const state = new Map(); // file -> 'open' while on the path, 'done' after
  const path = [];
  const cycles = [];
  function visit(file) {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file)) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  }
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles.map((cycle) => cycle.map((f) => relative(root, f)));
}

test('the cycle check finds two modules that import each other', () => {
  const root = tempDir('imports');
  mkdirSync(join(root, 'state'));
  writeFileSync(join(root, 'main.jsx'), "import { a } from './state/a.js';\n");
  writeFileSync(join(root, 'state/a.js'), "import { b } from './b.js';\nexport const a = () => b;\n");
  writeFileSync(join(root, 'state/b.js'), "// import { nothing } from './c.js';\nexport { a } from './a.js';\nexport const b = 1;\n");
  assert.deepEqual(findCycles(root), [['state/a.js', 'state/b.js', 'state/a.js']]);
});

test('the cycle check follows dynamic imports and ignores packages', () => {
  const root = tempDir('imports');
  writeFileSync(join(root, 'a.js'), "import { signal } from '@preact/signals';\nexport const load = () => import('./b.js');\n");
  writeFileSync(join(root, 'b.js'), "import {\n  load,\n} from './a.js';\n");
  writeFileSync(join(root, 'c.js'), "import './a.js';\n");
  assert.deepEqual(findCycles(root), [['a.js', 'b.js', 'a.js']]);
});

test('web/src has no import cycle', () => {
  const cycles = findCycles(join(repo, 'web/src'));
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => c.join(' -> ')).join('\n')}`);
});
