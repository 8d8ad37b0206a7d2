// `npm start [-- DIR]` (through .ci/start.sh): serves the built inspector on
// 127.0.0.1 and prints the address to open, at once. With DIR the page
// opens that world directory (read meanwhile) and saves into it; without,
// it opens its bundled sample.
//
//   node web/server/main.js [DIR] [--port N] [--share-base URL]
//
// --port: default 5173, or any free one if it is taken. --share-base: the
// address of the team's hosted inspector, where this run's share links
// open (over the world's share_base setting; lib/shareBase.js).
//
// Ctrl+C (SIGINT) or SIGTERM stops it once a save in progress is written
// and answered; a second one stops that save after the file being written.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.js';

const distDir = fileURLToPath(new URL('../dist', import.meta.url));

function parseArgs(argv) {
  const out = { dir: null, port: 5173, shareBase: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') out.port = Number(argv[++i]);
    else if (argv[i] === '--share-base') out.shareBase = argv[++i] ?? '';
    else if (argv[i].startsWith('--share-base=')) out.shareBase = argv[i].slice('--share-base='.length);
    else if (argv[i].startsWith('-')) throw new Error(`unknown option ${argv[i]}`);
    else if (out.dir === null) out.dir = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535) throw new Error('--port takes a port number');
  return out;
}

try {
  const { dir, port, shareBase } = parseArgs(process.argv.slice(2));
  if (!existsSync(`${distDir}/index.html`)) throw new Error(`${distDir}/index.html is missing: build the inspector first (npm run build)`);
  // npm runs scripts from the package folder; INIT_CWD is where it was typed.
  const worldDir = dir === null ? null : resolve(process.env.INIT_CWD ?? process.cwd(), dir);
  const server = await startServer({ dir: worldDir, distDir, port, shareBase });
  console.log(worldDir ? `Juliet World inspector on ${worldDir}:` : 'Juliet World inspector (bundled sample):');
  console.log(`  ${server.url}`);
  if (server.shareBase) console.log(`  share links open at ${server.shareBase}`);
  let stopping = false;
  // The address comes at once; the world is read meanwhile (a page opened
  // now waits for it). A world that cannot be read stops the server.
  server.loaded.then(
    (loaded) => loaded && console.log(`  read ${loaded.count.toLocaleString('en')} files in ${loaded.ms} ms`),
    (err) => {
      stopping = true;
      console.error(`juliet: the world could not be read: ${err.message}`);
      server.close({ now: true }).then(() => process.exit(1));
    },
  );
  server.engineReady.then(
    (ready) => ready && console.log(`  ready to save (${ready.count.toLocaleString('en')} entities opened in ${ready.ms} ms)`),
    (err) => stopping || console.error(`juliet: ${err.message}`),
  );
  const stop = () => {
    if (stopping) return server.close({ now: true });
    stopping = true;
    console.log('Stopping (a save in progress is finished first; Ctrl+C again stops it after the file being written)');
    server.close().then(
      () => process.exit(0),
      (err) => {
        console.error(`juliet: ${err.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(`juliet: ${err.message}`);
  process.exit(1);
}
