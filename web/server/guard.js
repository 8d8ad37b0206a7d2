// Who may talk to the local server. It listens on 127.0.0.1 only, but any
// web page the user visits can send requests there, and a DNS name that
// rebinds to 127.0.0.1 makes them look same-origin. So every request must
// name the server itself in its Host header (and in Origin, when there is
// one), and every world route must carry the random token of this run,
// which only the printed address holds.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_HEADER = 'x-juliet-token';

/** A fresh token: 24 random bytes, URL-safe. */
export function newToken() {
  return randomBytes(24).toString('base64url');
}

/**
 * The checks for a server on `port` with `token`. hostAllowed(req) and
 * tokenGiven(req, url) each say yes or no.
 */
export function createGuard(port, token) {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = new Set([...hosts].map((h) => `http://${h}`));
  const expected = Buffer.from(token);

  return {
    hostAllowed(req) {
      if (!hosts.has(req.headers.host ?? '')) return false;
      const origin = req.headers.origin;
      return origin === undefined || origins.has(origin);
    },
    tokenGiven(req, url) {
      const given = req.headers[TOKEN_HEADER] ?? url.searchParams.get('token') ?? '';
      const bytes = Buffer.from(String(given));
      return bytes.length === expected.length && timingSafeEqual(bytes, expected);
    },
  };
}
