/** Polls `probe` every 50 ms until it returns true; fails after `timeoutMs`. Returns the time it took. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await probe().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not true within ${timeoutMs} ms`);
}
