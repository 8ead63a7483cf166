// Refreshing the repository, and what the agent remembers when it cannot: since when Git is
// unreachable and how many refreshes failed, so that once Git answers again the report says
// how long the agent ran on its last known state (test/faults/README.md: a lost control plane never
// deletes workloads; the agent keeps the last applied state and deletes nothing meanwhile).
import type { Clock } from '../runtime/clock.js';
import { rateLimitWait } from '../runtime/rate-limit-wait.js';
import type { AgentMemory } from './agent-memory.js';
import type { AgentRepo } from './agent-repo.js';

/** Refreshes the repository; returns false (and remembers the outage) when it cannot be reached. */
export async function refreshRepo(repo: AgentRepo, memory: AgentMemory, clock: Clock): Promise<boolean> {
  const git = memory.git;
  try {
    await repo.refresh();
  } catch (error) {
    git.downSinceMs ??= clock.now();
    git.failures++;
    git.lastError = (error as Error).message;
    const wait = rateLimitWait(error);
    if (wait === undefined) delete git.rateLimitWaitMs;
    else git.rateLimitWaitMs = wait;
    return false;
  }
  delete git.rateLimitWaitMs;
  if (git.downSinceMs !== undefined) {
    const took = formatDuration(clock.now() - git.downSinceMs);
    git.lastOutage =
      `${repo.description} was unreachable for ${took} (${git.failures} failed refreshes, last: ${git.lastError ?? 'unknown error'}); ` +
      'the agent kept the last applied state and deleted nothing meanwhile';
    delete git.downSinceMs;
    git.failures = 0;
  }
  return true;
}

/** Returns a duration as `1h2m3s`, `2m3s` or `3s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [h > 0 ? `${h}h` : '', h > 0 || m > 0 ? `${m}m` : '', `${s % 60}s`];
  return parts.join('');
}
