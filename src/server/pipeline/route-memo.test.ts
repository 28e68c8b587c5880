/**
 * @module server/route-memo.test
 * The remembered router answers exactly as the router it wraps, path by path (each path its own
 * parameters) and method by method, and forgets what it kept when a route is added.
 */
import { describe, expect, it } from 'vitest';
import { TrieRouter } from 'hono/router/trie-router';
import { RememberingRouter } from './route-memo.js';

describe('RememberingRouter', () => {
  it('answers as the wrapped router, per method and path', () => {
    const router = new RememberingRouter<string>();
    const plain = new TrieRouter<string>();
    for (const r of [router, plain]) {
      r.add('ALL', '*', 'log');
      r.add('GET', '/parts/search', 'search-get');
      r.add('POST', '/parts/search', 'search');
      r.add('GET', '/parts/:id', 'part');
    }
    const handlers = (result: ReturnType<typeof plain.match>) =>
      result[0].map(([h, p]) => [h, { ...p }]);
    for (const [method, path] of [
      ['GET', '/parts/a'],
      ['GET', '/parts/b'],
      ['GET', '/parts/a'],
      ['POST', '/parts/search'],
      ['GET', '/parts/search'],
      ['DELETE', '/parts/a'],
    ])
      expect(handlers(router.match(method, path))).toEqual(handlers(plain.match(method, path)));
    expect(router.match('GET', '/parts/b')).toBe(router.match('GET', '/parts/b'));
  });

  it('forgets its answers when a route is added', () => {
    const router = new RememberingRouter<string>(new TrieRouter<string>());
    router.add('GET', '/a/:id', 'one');
    expect(router.match('GET', '/a/x')[0]).toHaveLength(1);
    router.add('GET', '/a/x', 'two');
    expect(router.match('GET', '/a/x')[0].map(([h]) => h)).toEqual(['one', 'two']);
  });
});
