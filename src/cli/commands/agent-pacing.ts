// The agent's push pacer, wired (loops/agent/push-pacer.ts, docs/git-budget.md#pacing): one for
// the process, shared by the status pass and the heartbeat, following the hub's push slot when
// the doorbell gives one and `--push-spread` otherwise. None with `--once` (one pass pushes its
// status at once), nor when there is nothing to pace by (no spread, no doorbell): then the
// agent pushes exactly as it always did.
import type { AgentDoorbellOptions, AgentWaiting } from './agent-doorbell.js';
import { pushPacer, type PushPacer } from '../../loops/agent/push-pacer.js';
import type { Clock } from '../../loops/runtime/clock.js';

/** Returns the agent's push pacer, or undefined when its pushes are not paced. */
export function agentPushPacer(
  opts: { once: boolean; pushSpreadMs?: number; doorbell?: AgentDoorbellOptions },
  waiting: Pick<AgentWaiting, 'pushSlot'>,
  clock: Clock,
): PushPacer | undefined {
  const spreadMs = opts.pushSpreadMs ?? 0;
  if (opts.once || (spreadMs <= 0 && opts.doorbell === undefined)) return undefined;
  return pushPacer({ clock, random: Math.random, spreadMs, slot: () => waiting.pushSlot() });
}
