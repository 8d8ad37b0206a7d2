// bench.js - the WebAssembly figures of `npm run bench` (.ci/bench.d/20-wasm.sh).
//
// Engine in wasm: the C benchmarks tests/bench/bench_core.c and
// bench_persistence.c, compiled to wasm (build/wasm/bench/) and run under
// node, give
//   wasm_create     MakeEntity of 100,000 entities (their `create`)
//   wasm_load_mem   100,000 .jasset texts tokenized and deserialized in
//                   place (their `load_mem`)
// and, beside the same programs built natively, the wasm/native ratio (in
// the readable output).
// Through the JavaScript API (what a page pays, calls across the boundary
// included):
//   wasm_api_create     world.create() 100,000 times
//   wasm_api_open_memfs juliet.openWorld() of 100,000 files in MEMFS
//   wasm_api_open_disk  juliet.openWorld() of 100,000 files on disk (a world
//                       of `juliet gen` in the system's temporary folder),
//                       what the local server's engine pays at its start;
//                       beside it the native open of the same files
//                       (`juliet stats`, its whole run)
//   server_save_1500    a save of 1,500 edited entities of that world,
//                       posted to the local server as the page posts it,
//                       until its answer (ns per entity saved, median of
//                       3); beside it the floor: the same bytes written
//                       with one sync
//   wasm_api_rows       world.rows() of 100,000 entities
//   wasm_api_entities   world.entities() of 100,000 entities
//   wasm_api_field_text world.fieldText() of one field of 100,000 entities
//                       (what the inspector's query pays per field term)
//
// Output as tests/bench/report.h: a readable line per figure, or with --json
// one object per line {"bench": NAME, "n": N, "ns_per_entity": T}; notes
// (ratios) only in the readable form. With --only NAME, only the part that
// measures figure NAME runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { decodePack, encodePack } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { startServer } from '../../web/server/server.js';
import { median } from '../shared/median.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const json = process.argv.includes('--json');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
/** Whether to run a part that reports these figures (report.h's bench_wants). */
const wants = (...figures) => only === undefined || figures.includes(only);
const N = 100000;
const RUNS = 3;

function report(name, n, totalNs) {
  const per = n ? totalNs / n : 0;
  if (json) console.log(`{"bench": ${JSON.stringify(name)}, "n": ${n}, "ns_per_entity": ${per.toFixed(3)}}`);
  else console.log(`${name.padEnd(18)} n=${String(n).padEnd(9)} ${per.toFixed(2).padStart(10)} ns/entity`);
}

function note(text) {
  if (!json) console.log(text);
}

/** Runs a benchmark program with --json; its figures by name (first n=N one). */
function runC(command, args) {
  const run = spawnSync(command, [...args, '--json'], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr}`);
  const figures = new Map();
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const figure = JSON.parse(line);
    if (figure.n === N && !figures.has(figure.bench)) figures.set(figure.bench, figure.ns_per_entity);
  }
  return figures;
}

function engineFigures() {
  const pairs = [
    ['bench_core', 'create', 'wasm_create'],
    ['bench_persistence', 'load_mem', 'wasm_load_mem'],
  ];
  for (const [program, name, wasmName] of pairs) {
    if (!wants(wasmName)) continue;
    const wasmProgram = join(repo, 'build/wasm/bench', `${program}.js`);
    const nativeProgram = join(repo, 'build/native/tests/bench', program);
    if (!existsSync(wasmProgram)) throw new Error(`${wasmProgram} is missing: run .ci/build.sh`);
    const wasm = runC(process.execPath, ['--no-experimental-fetch', wasmProgram, '--only', name]).get(name);
    if (wasm === undefined) throw new Error(`${program} (wasm) printed no ${name} at n=${N}`);
    report(wasmName, N, wasm * N);
    // The ratio is a note, so JSON output skips the native run.
    if (!json && existsSync(nativeProgram)) {
      const native = runC(nativeProgram, ['--only', name]).get(name);
      if (native !== undefined) {
        note(`  ${wasmName} / native ${name} = ${(wasm / native).toFixed(2)} (native ${native.toFixed(2)} ns/entity)`);
      }
    }
  }
}

function best(fn) {
  let bestNs = Infinity;
  for (let run = 0; run < RUNS; run++) bestNs = Math.min(bestNs, fn());
  return bestNs;
}

async function apiFigures() {
  const juliet = await loadJuliet();
  const classes = ['Inert', 'Light', 'Prop'];

  const createNs = best(() => {
    const world = juliet.newWorld();
    try {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) world.create(classes[i % 3], [i, 1, 2]);
      return (performance.now() - t0) * 1e6;
    } finally {
      world.close();
    }
  });
  report('wasm_api_create', N, createNs);

  // A 100k world saved once into MEMFS, then opened again and again.
  const dir = '/bench/world';
  const source = juliet.newWorld({ inMemory: true });
  for (let i = 0; i < N; i++) {
    const id = source.create(classes[i % 3], [(i % 1000) * 0.25, 1.5, -i / 8]);
    if (i % 3 === 2) source.set(id, 'velocity', [1, 0, 0.5]);
  }
  source.save(dir);
  source.close();
  let rowsNs = Infinity;
  let entitiesNs = Infinity;
  let fieldNs = Infinity;
  const openNs = best(() => {
    const t0 = performance.now();
    const world = juliet.openWorld(dir, { inMemory: true });
    const elapsed = (performance.now() - t0) * 1e6;
    try {
      if (world.count !== N) throw new Error(`opened ${world.count} of ${N} entities`);
      let t = performance.now();
      world.rows();
      rowsNs = Math.min(rowsNs, (performance.now() - t) * 1e6);
      t = performance.now();
      world.entities();
      entitiesNs = Math.min(entitiesNs, (performance.now() - t) * 1e6);
      const { ids } = world.rows();
      t = performance.now();
      for (const id of ids) world.fieldText(id, 'position');
      fieldNs = Math.min(fieldNs, (performance.now() - t) * 1e6);
    } finally {
      world.close();
    }
    return elapsed;
  });
  juliet.removeFiles(dir);
  report('wasm_api_open_memfs', N, openNs);
  report('wasm_api_rows', N, rowsNs);
  report('wasm_api_entities', N, entitiesNs);
  report('wasm_api_field_text', N, fieldNs);
}

// A world of N files on disk, opened through the API as the local server's
// engine opens it, and natively.
async function diskFigures() {
  const cli = join(repo, 'build/native/juliet');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run .ci/build.sh`);
  const base = mkdtempSync(join(tmpdir(), 'juliet-bench-'));
  try {
    const dir = join(base, 'world');
    const gen = spawnSync(cli, ['gen', dir, '--count', String(N)], { encoding: 'utf8' });
    if (gen.status !== 0) throw new Error(`juliet gen failed: ${gen.stderr}`);
    const juliet = await loadJuliet();
    const openNs = best(() => {
      const t0 = performance.now();
      const world = juliet.openWorld(dir);
      const elapsed = (performance.now() - t0) * 1e6;
      const count = world.count;
      world.close();
      if (count !== N) throw new Error(`opened ${count} of ${N} entities`);
      return elapsed;
    });
    report('wasm_api_open_disk', N, openNs);
    if (!json) {
      const nativeNs = best(() => {
        const t0 = performance.now();
        const run = spawnSync(cli, ['stats', dir], { encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`juliet stats failed: ${run.stderr}`);
        return (performance.now() - t0) * 1e6;
      });
      note(`  wasm_api_open_disk / native open = ${(openNs / nativeNs).toFixed(2)} (native ${(nativeNs / N).toFixed(2)} ns/entity)`);
    }
    if (wants('server_save_1500')) await servedSaveFigures(dir);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

note('wasm (node ' + process.versions.node + '), best of several runs');
engineFigures();
if (wants('wasm_api_create', 'wasm_api_open_memfs', 'wasm_api_rows', 'wasm_api_entities', 'wasm_api_field_text')) await apiFigures();
if (wants('wasm_api_open_disk', 'server_save_1500')) await diskFigures();

// A save of SAVED edited entities of the world at dir, posted to the local
// server (web/server) as the page posts it, median of RUNS; beside it the
// floor: the same bytes written to temporaries, made durable with one sync
// of the file system (coreutils' sync -f: syncfs), renamed over the files,
// the directory synced.
async function servedSaveFigures(dir) {
  const SAVED = 1500;
  const server = await startServer({ dir, distDir: join(repo, 'web/dist') });
  const saves = [];
  let changes = [];
  try {
    await server.engineReady;
    const call = (path, body) =>
      fetch(`http://127.0.0.1:${server.port}${path}`, { method: body ? 'POST' : 'GET', headers: { 'x-juliet-token': server.token }, body });
    for (let round = 0; round < RUNS; round++) {
      const { files } = decodePack(new Uint8Array(await (await call('/api/world')).arrayBuffer()));
      changes = files
        .filter((f) => f.path.startsWith('Entities/'))
        .slice(0, SAVED)
        .map(({ path, seq, bytes }) => ({
          path,
          seq,
          bytes: Buffer.from(
            Buffer.from(bytes)
              .toString()
              .replace(/; position\n[^\n]*/, `; position\n${round} 1 2`),
          ),
        }));
      const t0 = performance.now();
      const { meta } = decodePack(new Uint8Array(await (await call('/api/save', encodePack({}, changes))).arrayBuffer()));
      saves.push((performance.now() - t0) * 1e6);
      const written = meta.results.filter((r) => r.status === 'written').length;
      if (written !== SAVED) throw new Error(`the server wrote ${written} of ${SAVED} files`);
    }
    report('server_save_1500', SAVED, median(saves));
  } finally {
    await server.close();
  }
  if (json) return;
  const floors = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    const temps = changes.map(({ path, bytes }) => {
      const temp = join(dir, `${path}.floor-${run}`);
      writeFileSync(temp, bytes);
      return temp;
    });
    execFileSync('sync', ['-f', join(dir, 'Entities')]);
    temps.forEach((temp, i) => renameSync(temp, join(dir, changes[i].path)));
    const entities = openSync(join(dir, 'Entities'), 'r');
    fsyncSync(entities);
    closeSync(entities);
    floors.push((performance.now() - t0) * 1e6);
  }
  note(
    `  server_save_1500 / floor = ${(median(saves) / median(floors)).toFixed(2)} (floor ${(median(floors) / 1e6).toFixed(0)} ms: the same bytes, one sync -f)`,
  );
}
