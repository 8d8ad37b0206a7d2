// scale.js - a big world end to end, as its users wait for it:
// `npm run bench:scale [-- COUNT] [--dir DIR] [--no-browser]` (COUNT
// defaults to 1,000,000; DIR, where the world is made, to a new folder in
// the system's temporary directory, on disk: a RAM folder would hide the
// disk's part). Not part of `npm test`, whose browser suites run the same
// measurements at 100,000.
//
// Prints one line per figure, seconds or milliseconds as named, with the
// peak memory of the process that did the work:
//   cli_gen_s, cli_validate_s, cli_stats_s, cli_share_s (and the link's
//                   length), cli_unshare_s: the `juliet` commands on the world
//   bare_read_s     the floor of cli_stats_s (tests/bench/bare_read.c), and
//                   the ratio
//   js_open_world_s `openWorld` of the world through the JavaScript API under
//                   Node (its peak RSS and the wasm heap)
// then runs the browser suites that measure a served world, the inspector
// and the 3D view (tests/e2e/server_perf, perf and map_perf) on it and
// prints their figures; perf, which chooses the world's folder in the
// page, only up to UPLOAD_MAX files.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(repo, 'build', 'native', 'juliet');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const browser = !args.includes('--no-browser');
const base = option('--dir') ?? mkdtempSync(join(tmpdir(), 'juliet-scale-'));
const world = join(base, `world_${count}`);

function print(name, value, details = '') {
  console.log(`${name.padEnd(22)} ${String(value).padStart(10)}${details ? `  ${details}` : ''}`);
}

const mb = (kb) => `${Math.round(kb / 1024)} MB`;

/**
 * Runs `command` with `argv` (and `input` on its standard input), sampling
 * its peak resident memory (VmHWM) while it runs; resolves with
 * { s, peakKb, stdout } or rejects with its error output.
 */
function measured(command, argv, { input = null, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd, stdio: [input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    child.stdin?.end(input);
    let peakKb = 0;
    const sample = () => {
      try {
        const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // Ended between two samples.
      }
    };
    const timer = setInterval(sample, 20);
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (status) => {
      clearInterval(timer);
      const s = (performance.now() - started) / 1000;
      if (status !== 0) reject(new Error(`${command} ${argv.join(' ')}: ${Buffer.concat(err).toString()}`));
      else resolve({ s, peakKb, stdout: Buffer.concat(out).toString() });
    });
  });
}

async function cliFigures() {
  const gen = await measured(cli, ['gen', world, '--count', String(count)]);
  print('cli_gen_s', gen.s.toFixed(1), `peak ${mb(gen.peakKb)}`);
  const runs = {};
  for (const command of ['validate', 'stats']) {
    runs[command] = await measured(cli, [command, world]);
    print(`cli_${command}_s`, runs[command].s.toFixed(1), `peak ${mb(runs[command].peakKb)}`);
  }
  // The floor of the native open: the same files opened, read once and
  // closed, nothing else.
  const bare = await measured(join(repo, 'build', 'native', 'tests', 'bench', 'bare_read'), [world]);
  const bareS = Number(bare.stdout.split(' ')[1]);
  print('bare_read_s', bareS.toFixed(1), `cli_stats_s is ${(runs.stats.s / bareS).toFixed(2)}x this`);
  const share = await measured(cli, ['share', world]);
  const link = share.stdout.trim();
  print('cli_share_s', share.s.toFixed(1), `peak ${mb(share.peakKb)}, link ${link.length.toLocaleString('en')} characters`);
  const copy = join(base, 'unshared');
  const unshare = await measured(cli, ['unshare', '-', copy], { input: link });
  print('cli_unshare_s', unshare.s.toFixed(1), `peak ${mb(unshare.peakKb)}`);
  rmSync(copy, { recursive: true, force: true });
}

// openWorld in a Node process of its own, which reports its own figures.
async function jsFigures() {
  const script = `
    import { loadJuliet } from 'juliet-sample';
    const juliet = await loadJuliet();
    const t = performance.now();
    const world = juliet.openWorld(${JSON.stringify(world)}, { capacity: ${count * 2} });
    const s = (performance.now() - t) / 1000;
    console.log(JSON.stringify({ s, count: world.count, problems: world.diagnostics().length, heap: juliet.heapBytes() }));`;
  const run = await measured(process.execPath, ['--input-type=module', '-e', script], { cwd: repo });
  const figures = JSON.parse(run.stdout.trim().split('\n').pop());
  print(
    'js_open_world_s',
    figures.s.toFixed(1),
    `${figures.count.toLocaleString('en')} entities, ${figures.problems} problems, peak ${mb(run.peakKb)}, wasm heap ${mb(figures.heap / 1024)}`,
  );
}

// The most files the inspector is measured opening through a browser's
// folder input (perf.test.js): Chromium lists every chosen file in its own
// process first (5.5 GB of it for 1,000,000 files, still listing after
// minutes). Larger worlds are measured served and from their snapshot.
const UPLOAD_MAX = 200_000;

function browserFigures() {
  const names = ['server_perf', 'map_perf'];
  if (count <= UPLOAD_MAX) names.splice(1, 0, 'perf');
  else
    console.log(
      `perf (a folder chosen in the page): not run above ${UPLOAD_MAX.toLocaleString('en')} files; a browser lists the chosen files in its own memory first (5.5 GB, for minutes, at 1,000,000)`,
    );
  const suites = names.map((name) => join('tests', 'e2e', `${name}.test.js`));
  const run = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...suites], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    env: { ...process.env, JULIET_E2E_PERF: '1', JULIET_E2E_PERF_COUNT: String(count), JULIET_E2E_PERF_DIR: world },
  });
  for (const line of run.stdout.split('\n')) {
    const figures = /^# ([\w ]+ performance): (\{.*\})$/.exec(line);
    if (!figures) continue;
    console.log(`${figures[1]}:`);
    for (const [name, value] of Object.entries(JSON.parse(figures[2]))) print(`  ${name}`, value);
  }
  if (run.status !== 0) {
    console.error(
      run.stdout
        .split('\n')
        .filter((l) => /^\s*(not ok|#.*(Error|error))/.test(l))
        .join('\n'),
    );
    throw new Error('a browser suite failed (run it alone to see why)');
  }
}

try {
  statSync(cli);
} catch {
  console.error(`bench:scale: ${cli} is missing: run npm run build first`);
  process.exit(1);
}
console.log(`${count.toLocaleString('en')} entities in ${world}`);
try {
  await cliFigures();
  await jsFigures();
  if (browser) browserFigures();
} finally {
  if (!option('--dir')) rmSync(base, { recursive: true, force: true });
}
