// The library as a game team installs it: `npm pack` of this repository,
// then `npm install` of the tarball into a fresh project outside the tree
// (offline: the package has no dependencies). Used by the node:test suite
// (Node, a Vite build) and the browser test of the same project.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo, tempDir } from './fixtures.js';

/** Packs the library and installs it into a new project. Returns
 * { project, tarball: { path, size, files: [paths] } }. */
export function installPackedLibrary() {
  const dir = tempDir('npm-package');
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' }));
  const project = join(dir, 'game-tools');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'game-tools', private: true, type: 'module' }, null, 2));
  const tarball = join(dir, packed.filename);
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe' });
  return { project, tarball: { path: tarball, size: packed.size, files: packed.files.map((f) => f.path).sort() } };
}

/** The smallest page of a Vite app on the library: it opens a new world,
 * creates an entity of each class and shows "<entities> of <classes>"
 * in #count. */
export function writeViteApp(project) {
  writeFileSync(
    join(project, 'index.html'),
    '<!doctype html><html><body><p id="count">loading</p><script type="module" src="./main.js"></script></body></html>\n',
  );
  writeFileSync(
    join(project, 'main.js'),
    `import { loadJuliet } from 'juliet-world';
const juliet = await loadJuliet();
const world = juliet.newWorld();
for (const name of juliet.classes()) world.create(name, [1, 2, 3]);
document.getElementById('count').textContent = \`\${world.entities().length} of \${juliet.classes().length}\`;
`,
  );
}
