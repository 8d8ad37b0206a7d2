// The built inspector (web/dist) as static files: GET and HEAD of regular
// files under that folder only, never through a symbolic link, and nothing
// else (in particular nothing of the world directory). The page itself can
// carry what this run tells it, as meta tags (a script would break its
// Content Security Policy).
import { createReadStream, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

const escapeAttribute = (text) => text.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]);

// index.html with a <meta name content> per entry of `meta` first in its
// head (after the doctype, where the head is implied).
function withMeta(html, meta) {
  const tags = Object.entries(meta)
    .map(([name, content]) => `<meta name="${escapeAttribute(name)}" content="${escapeAttribute(content)}" />`)
    .join('');
  const at = html.match(/<head[^>]*>/i) ?? html.match(/<!doctype[^>]*>/i);
  const end = at ? at.index + at[0].length : 0;
  return html.slice(0, end) + tags + html.slice(end);
}

/**
 * A handler serving the files of `distDir`; answers true if it answered.
 * `pageMeta` ({ name: content }) goes into index.html as meta tags.
 */
export function staticFiles(distDir, { pageMeta = {} } = {}) {
  const root = realpathSync(distDir);
  const index = join(root, 'index.html');

  return function serve(req, res, url) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let pathname;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return false;
    }
    if (pathname === '/') pathname = '/index.html';
    // No hidden names, no '..': the path stays under the folder.
    if (pathname.includes('\0') || pathname.split('/').some((part) => part.startsWith('.'))) return false;
    let file;
    let st;
    try {
      file = realpathSync(join(root, ...pathname.split('/').filter(Boolean)));
      st = statSync(file);
    } catch {
      return false;
    }
    if (!file.startsWith(root + sep) || !st.isFile()) return false;
    if (file === index && Object.keys(pageMeta).length > 0) {
      const page = Buffer.from(withMeta(readFileSync(file, 'utf8'), pageMeta));
      res.writeHead(200, { 'Content-Type': TYPES['.html'], 'Content-Length': page.length, 'Cache-Control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : page);
      return true;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': st.size,
      // Built assets carry a hash in their names; the page itself does not.
      'Cache-Control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
    return true;
  };
}
