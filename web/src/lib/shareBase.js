// Where share links open: the share base, the address of a team's hosted
// inspector. It comes from this run of the local server (`npm start --
// DIR --share-base URL`), else the world's `share_base` setting
// (WorldSettings.jasset), else the page's own address. A base must be an
// http(s) address: a world may come from anyone's link, so a hostile
// setting must never turn Share into a `javascript:` link. Pure, for the
// page, the local server and node:test alike; `juliet share` checks a base
// the same way (c/cli/cmd_share.c).

const NOT_HTTP = 'not an http:// or https:// address';

/**
 * Checks `text` as a share base: { base } (the address as a link starts
 * with it, without any fragment) or { problem } in plain words.
 */
export function checkShareBase(text) {
  if (typeof text !== 'string' || !/^https?:\/\//i.test(text)) return { problem: NOT_HTTP };
  // A blank would split the link in a chat message or a shell.
  if (/[\s\p{Cc}]/u.test(text)) return { problem: 'it holds a blank or a control character' };
  let url;
  try {
    url = new URL(text);
  } catch {
    return { problem: /^https?:\/\/[/?#]*$/i.test(text) ? 'it names no host' : 'its host is not a valid name' };
  }
  if (url.username || url.password) return { problem: 'it carries a user name or password' };
  url.hash = '';
  return { base: url.href };
}

/**
 * The base links start with: this run's (`run`), else the world's
 * (`world`), else the page's address (`page`, origin and path); an empty
 * or missing value is not set. Returns { base, from: 'run' | 'world' |
 * 'page', ignored }, ignored listing each value set but refused before the
 * one used: [{ from, value, problem }].
 */
export function chooseShareBase({ run = null, world = null, page }) {
  const ignored = [];
  for (const [from, value] of [
    ['run', run],
    ['world', world],
  ]) {
    if (!value) continue;
    const { base, problem } = checkShareBase(value);
    if (base) return { base, from, ignored };
    ignored.push({ from, value, problem });
  }
  return { base: page, from: 'page', ignored };
}

/**
 * True if `address` names this machine (localhost, 127.x.x.x, [::1]): a
 * link to it opens only here.
 */
export function isLoopback(address) {
  let host;
  try {
    host = new URL(address).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
