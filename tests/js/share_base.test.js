// Where share links open (web/src/lib/shareBase.js): which base wins (this
// run's, the world's, the page's), which values are refused and why (a
// hostile setting never makes a link to anything but an http(s) page), and
// which addresses open only on this machine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkShareBase, chooseShareBase, isLoopback } from '../../web/src/lib/shareBase.js';

const PAGE = 'http://127.0.0.1:5173/';

test('an http or https address is a base, as links start with it: without its fragment', () => {
  assert.deepEqual(checkShareBase('https://team.github.io/game/'), { base: 'https://team.github.io/game/' });
  assert.deepEqual(checkShareBase('http://intranet:8080/tools/juliet/index.html'), {
    base: 'http://intranet:8080/tools/juliet/index.html',
  });
  assert.deepEqual(checkShareBase('HTTPS://Team.Example/a?b=1#old'), { base: 'https://team.example/a?b=1' });
  assert.deepEqual(checkShareBase('https://team.example'), { base: 'https://team.example/' });
});

test('markup in a base comes out percent-encoded, never as markup', () => {
  assert.deepEqual(checkShareBase('https://team.example/"><script>alert(1)</script>'), {
    base: 'https://team.example/%22%3E%3Cscript%3Ealert(1)%3C/script%3E',
  });
});

test('a base that is not an http(s) address is refused, saying why', () => {
  for (const [text, problem] of [
    ['javascript:alert(1)//', 'not an http:// or https:// address'],
    ['data:text/html,<script>alert(1)</script>', 'not an http:// or https:// address'],
    ['file:///etc/passwd', 'not an http:// or https:// address'],
    ['team.github.io/game/', 'not an http:// or https:// address'],
    ['http:team.example', 'not an http:// or https:// address'],
    [' https://team.example/', 'not an http:// or https:// address'],
    ['https://', 'it names no host'],
    ['https://%zz/', 'its host is not a valid name'],
    ['https://team.example/a b', 'it holds a blank or a control character'],
    ['https://team.example/\n', 'it holds a blank or a control character'],
    ['https://team.example/\u0085', 'it holds a blank or a control character'],
    ['https://user:secret@team.example/', 'it carries a user name or password'],
    ['https://google.com@evil.example/', 'it carries a user name or password'],
  ]) {
    assert.deepEqual(checkShareBase(text), { problem }, JSON.stringify(text));
  }
  for (const value of [null, undefined, 42, {}, ['https://x/']]) {
    assert.deepEqual(checkShareBase(value), { problem: 'not an http:// or https:// address' });
  }
});

test('the run base wins over the world base, which wins over the page address', () => {
  const run = 'https://run.example/';
  const world = 'https://world.example/';
  assert.deepEqual(chooseShareBase({ run, world, page: PAGE }), { base: run, from: 'run', ignored: [] });
  assert.deepEqual(chooseShareBase({ world, page: PAGE }), { base: world, from: 'world', ignored: [] });
  assert.deepEqual(chooseShareBase({ run: null, world: '', page: PAGE }), { base: PAGE, from: 'page', ignored: [] });
});

test('a refused base is passed over and named with its problem', () => {
  assert.deepEqual(chooseShareBase({ world: 'javascript:alert(1)//', page: PAGE }), {
    base: PAGE,
    from: 'page',
    ignored: [{ from: 'world', value: 'javascript:alert(1)//', problem: 'not an http:// or https:// address' }],
  });
  assert.deepEqual(chooseShareBase({ run: 'ftp://x/', world: 'https://world.example', page: PAGE }), {
    base: 'https://world.example/',
    from: 'world',
    ignored: [{ from: 'run', value: 'ftp://x/', problem: 'not an http:// or https:// address' }],
  });
});

test('localhost, 127.x.x.x and [::1] are this machine; any other host is not', () => {
  for (const address of [
    'http://127.0.0.1:5173/',
    'http://localhost:5173/',
    'http://[::1]:5173/',
    'http://127.1.2.3/',
    'http://app.localhost/',
  ]) {
    assert.equal(isLoopback(address), true, address);
  }
  for (const address of [
    'https://team.github.io/game/',
    'http://192.168.1.20:5173/',
    'http://localhost.example/',
    'http://127.0.0.1.example/',
    'not a url',
  ]) {
    assert.equal(isLoopback(address), false, address);
  }
});
