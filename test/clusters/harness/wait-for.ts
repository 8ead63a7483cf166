// Polling with a deadline, for readiness checks on a machine that may be busy.

/** The outcome of a wait: done, or timed out with the last thing seen, or given up early. */
export type WaitResult =
  { type: 'Done' } | { type: 'TimedOut'; last: string } | { type: 'GaveUp'; reason: string };

/** What one poll saw: done, not yet (with a note), or never (stop waiting). */
export type PollResult =
  { type: 'Done' } | { type: 'NotYet'; note: string } | { type: 'Never'; reason: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Returns once `poll` says done or never, or when `timeoutMs` has passed. */
export async function waitFor(
  poll: () => Promise<PollResult>,
  opts: { timeoutMs: number; intervalMs?: number },
): Promise<WaitResult> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const seen = await poll();
    if (seen.type === 'Done') return seen;
    if (seen.type === 'Never') return { type: 'GaveUp', reason: seen.reason };
    if (Date.now() >= deadline) return { type: 'TimedOut', last: seen.note };
    await sleep(opts.intervalMs ?? 250);
  }
}
