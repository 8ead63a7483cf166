// Waiting in the multi-cluster services benchmarks: a condition polled until it holds, with a
// deadline that names what was waited for.
import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

/** Returns the first value `probe` gives that is not undefined; throws after `timeoutMs`. */
export async function waitUntil<T>(opts: {
  what: string;
  probe: () => Promise<T | undefined>;
  timeoutMs: number;
  intervalMs?: number;
}): Promise<T> {
  const deadline = performance.now() + opts.timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const value = await opts.probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = `; last error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (performance.now() > deadline)
      throw new Error(
        `gave up after ${Math.round(opts.timeoutMs / 1000)} s waiting for ${opts.what}${lastError}`,
      );
    await sleep(opts.intervalMs ?? 100);
  }
}
