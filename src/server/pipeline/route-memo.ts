/**
 * @module route-memo
 * Hono's own router (the one `new Hono()` picks: a regular-expression router, or the trie router
 * when the routes do not fit one regular expression, as the mock's do not), with its answers kept
 * per method and path. The routes are all added before the first request (Hono refuses one added
 * later), so a path always matches the same handlers with the same parameters; a client asks the
 * same few paths again and again, and the trie walk was a share of a small answer (bench/README.md).
 * Bounded: a limited number of paths, none longer than a URL anyone sends twice.
 */
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { Lru } from '../lru.js';

/** Paths whose match is kept, and the longest path kept (longer ones are matched every time). */
const MATCH_ENTRIES = 2048;
const MATCH_MAX_PATH = 1024;

export class RememberingRouter<T> implements Router<T> {
  readonly #inner: Router<T>;
  readonly #matches = new Lru<string, Result<T>>(MATCH_ENTRIES);

  constructor(
    inner: Router<T> = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] }),
  ) {
    this.#inner = inner;
  }

  get name(): string {
    return `${this.#inner.name}, remembered per path`;
  }

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler);
    this.#matches.clear();
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MATCH_MAX_PATH) return this.#inner.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      result = this.#inner.match(method, path);
      this.#matches.set(key, result);
    }
    return result;
  }
}
