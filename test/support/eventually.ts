// Waiting for something a running process does (a watch firing, a loop's next pass): poll a
// condition until it holds, with a generous deadline that only keeps a broken test from hanging.
// The deadline is a watchdog, not a timing assertion.

/** Resolves once the condition holds; rejects naming `what` after `timeoutMs` (default 20 s). */
export async function eventually(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
