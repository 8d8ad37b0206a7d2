// The npm package (package.json "files", "exports"): the tarball holds the
// library alone, installs into a fresh project with no dependencies, opens a
// world under Node and builds into a Vite app whose .wasm is emitted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assets, copyWorld, repo, sampleWorld } from '../shared/fixtures.js';
import { installPackedLibrary, packageDir, writeViteApp } from '../shared/npmPackage.js';

const { project, tarball } = installPackedLibrary();
const installed = join(project, 'node_modules', 'juliet-world');

test('the tarball holds the library alone: its modules, types and the wasm pair', () => {
  const sources = readdirSync(join(packageDir, 'src')).map((name) => `src/${name}`);
  const expected = ['README.md', 'package.json', 'juliet.d.ts', ...sources, 'dist/juliet_wasm.mjs', 'dist/juliet_wasm.wasm'];
  assert.deepEqual(tarball.files, expected.sort(), `unexpected files: ${tarball.files}`);
  assert.ok(tarball.files.includes('src/juliet.js'), 'the entry is missing from the tarball');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  assert.equal(manifest.dependencies, undefined, 'the library has no runtime dependencies');
  assert.ok(!existsSync(join(project, 'node_modules', 'preact')), "the inspector's packages were installed");
  console.log(`npm package: ${tarball.size} bytes packed, ${tarball.files.length} files`);
});

test('the package version is the C library version (version.h)', () => {
  const header = readFileSync(join(repo, 'c/include/juliet/version.h'), 'utf8');
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  assert.equal(manifest.version, header.match(/JL_VERSION_STRING "([^"]+)"/)[1]);
});

test('installed, it opens, edits and saves under Node a world that describes its classes in class files', () => {
  const world = copyWorld(join(assets, 'class_world'));
  writeFileSync(
    join(project, 'edit.js'),
    `import { loadJuliet } from 'juliet-world';
const juliet = await loadJuliet();
const world = juliet.openWorld(process.argv[2]);
const [first] = world.entities();
world.set(first.id, 'position', [1, 2, 3]);
const report = world.save();
console.log(JSON.stringify({ count: world.entities().length, written: report.written, opaque: world.opaqueClasses() }));
world.close();
`,
  );
  const out = JSON.parse(execFileSync(process.execPath, ['edit.js', world], { cwd: project, encoding: 'utf8' }));
  assert.equal(out.count, readdirSync(join(world, 'Entities')).length);
  assert.deepEqual(out.opaque, []);
  assert.equal(out.written.length, 1);
  const text = readFileSync(out.written[0], 'utf8');
  assert.match(text, /\n; position\n1 2 3\n/);
});

test("installed, it has no class compiled in: the sample game's entities are kept as text", () => {
  writeFileSync(
    join(project, 'classes.js'),
    `import { loadJuliet } from 'juliet-world';
const juliet = await loadJuliet();
const world = juliet.openWorld(process.argv[2]);
console.log(JSON.stringify({ compiled: juliet.classes(), opaque: world.opaqueClasses().sort(), count: world.count }));
world.close();
`,
  );
  const out = JSON.parse(execFileSync(process.execPath, ['classes.js', sampleWorld], { cwd: project, encoding: 'utf8' }));
  assert.deepEqual(out.compiled, []);
  assert.deepEqual(out.opaque, ['Inert', 'Light', 'Prop']);
  assert.equal(out.count, readdirSync(join(sampleWorld, 'Entities')).length);
});

test('installed, a Vite app bundles it with its .wasm', async () => {
  writeViteApp(project);
  const vite = await import('vite');
  const outDir = join(project, 'dist');
  await vite.build({ root: project, configFile: false, logLevel: 'error', build: { outDir, target: 'es2022' } });
  const assets = readdirSync(join(outDir, 'assets'));
  const wasm = assets.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `no .wasm emitted: ${assets}`);
  const js = assets.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(outDir, 'assets', f), 'utf8'));
  assert.ok(
    js.some((code) => code.includes(wasm[0])),
    'the bundle does not locate its .wasm',
  );
});
