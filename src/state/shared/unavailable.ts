/**
 * @module state/shared/unavailable
 * The error a shared store gives when it cannot take an entry (Redis away). Its own module, so the
 * admin routes that answer it with a 503 do not load ioredis with the package root.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(what: string) {
    super(`the shared state (--state) is unreachable: the ${what} was not added; try again`);
  }
}
