import { afterAll, beforeAll } from 'vitest';

/**
 * Starts something (a server, a mock upstream, a signed-in client) before the tests of the enclosing
 * `describe` and, if it has a `close()`, closes it after them. The returned object stands for the started
 * value, read inside tests only, so a suite needs neither a `let` nor hooks of its own.
 */
export function startedForSuite<Started extends object>(start: () => Promise<Started>): Started {
  let started: Started | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    const close: unknown = started && Reflect.get(started, 'close');
    if (typeof close === 'function') await (close as () => Promise<void>).call(started);
  });
  return new Proxy({} as Started, {
    get(_target, property) {
      if (!started) throw new Error('this is started in beforeAll: read it inside a test');
      const value: unknown = Reflect.get(started, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}
