// Vite configuration of the inspector (web/). Besides Preact, it provides the
// bundled sample world as the virtual module `virtual:sample-world`, read
// from assets/sample_world/ (or the folder named by JULIET_SAMPLE_DIR) at
// build time, so that `Open sample` needs no server-side support.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = join(webDir, '..');
const sampleDir = process.env.JULIET_SAMPLE_DIR || join(repoDir, 'assets', 'sample_world');

function listFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out;
}

// Exposes the sample world as { name, files: [{ path, base64 }] }.
function sampleWorld() {
  const id = 'virtual:sample-world';
  const resolved = '\0' + id;
  return {
    name: 'juliet-sample-world',
    resolveId(source) {
      return source === id ? resolved : null;
    },
    load(source) {
      if (source !== resolved) return null;
      let files = [];
      try {
        files = listFiles(sampleDir)
          .filter((file) => file.endsWith('.jasset'))
          .map((file) => {
            this.addWatchFile(file);
            return {
              path: relative(sampleDir, file).split(sep).join('/'),
              base64: readFileSync(file).toString('base64'),
            };
          });
      } catch (err) {
        if (err.code !== 'ENOENT') throw err;
      }
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return `export default ${JSON.stringify({ name: basename(sampleDir), files })};`;
    },
  };
}

// The built page runs under a strict Content Security Policy: scripts,
// styles, the worker and the wasm module only from this origin, nothing
// inline. (Not in `vite` dev mode, whose module reloading injects code.)
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "worker-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy() {
  return {
    name: 'juliet-csp',
    apply: 'build',
    transformIndexHtml() {
      return [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }];
    },
  };
}

export default defineConfig({
  root: webDir,
  // Every asset (scripts, the worker, the wasm module, the 3D view's chunk)
  // is loaded by a path relative to the page, so web/dist works as it is
  // from any folder of any static host (a GitHub Pages project site, an
  // intranet's /tools/juliet/), as well as from the local server's root.
  base: './',
  plugins: [preact(), sampleWorld(), contentSecurityPolicy()],
  worker: { format: 'es' },
  server: { fs: { allow: [repoDir] } },
  build: {
    outDir: join(webDir, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // The 3D view's chunk is three.js (about 570 kB, 145 kB compressed),
    // loaded only when the view is first shown.
    chunkSizeWarningLimit: 700,
  },
});
