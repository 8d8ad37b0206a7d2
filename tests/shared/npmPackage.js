// The library as a game team installs it: `npm pack` of its package folder
// (packages/juliet-world), then `npm install` of the tarball into a fresh project outside the tree
// (offline: the package has no dependencies). Used by the node:test suite
// (Node, a Vite build) and the browser test of the same project.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assets, repo, tempDir } from './fixtures.js';

/** The library's package folder. */
export const packageDir = join(repo, 'packages', 'juliet-world');

/** Packs the library and installs it into a new project. Returns
 * { project, tarball: { path, size, files: [paths] } }. */
export function installPackedLibrary() {
  const dir = tempDir('npm-package');
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: packageDir, encoding: 'utf8' }));
  const project = join(dir, 'game-tools');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'game-tools', private: true, type: 'module' }, null, 2));
  const tarball = join(dir, packed.filename);
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe' });
  return { project, tarball: { path: tarball, size: packed.size, files: packed.files.map((f) => f.path).sort() } };
}

/** The smallest page of a Vite app on the library, which has no class
 * compiled in: it writes the class files of assets/class_world into a
 * world folder of the in-memory file system, opens it, creates an entity
 * of each class described and shows "<entities> of <classes>" in #count. */
export function writeViteApp(project) {
  const classesDir = join(assets, 'class_world', 'Classes');
  const classFiles = readdirSync(classesDir)
    .sort()
    .map((name) => ({ path: `Classes/${name}`, bytes: readFileSync(join(classesDir, name), 'utf8') }));
  writeFileSync(
    join(project, 'index.html'),
    '<!doctype html><html><body><p id="count">loading</p><script type="module" src="./main.js"></script></body></html>\n',
  );
  writeFileSync(
    join(project, 'main.js'),
    `import { loadJuliet } from 'juliet-world';
const classFiles = ${JSON.stringify(classFiles)};
const juliet = await loadJuliet();
juliet.writeFiles('/level', classFiles);
const world = juliet.openWorld('/level');
const names = classFiles.map((f) => f.path.slice('Classes/'.length, -'.jclass'.length));
for (const name of names) world.create(name, [1, 2, 3]);
document.getElementById('count').textContent = \`\${world.entities().length} of \${names.length}\`;
`,
  );
}
