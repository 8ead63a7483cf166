// The agent's doorbell and the refresh gate it opens (agent-doorbell.ts wires them): each ring
// hands its head to the gate, which tells it to the repository just before the refresh that
// ring opened (loops/agent/refresh-gate.ts), so the render repository's mirror fetches that head
// alone (adapters/remote/fetch-known-head.ts); every other trigger opens the gate as it is.
import { sendBeacon, waitForHead } from '../../adapters/http/doorbell-request.js';
import { readRef } from '../../adapters/git/read-ref.js';
import type { RemoteHubRepo } from '../../adapters/remote/remote-hub-repo.js';
import { clusterBranchRef, type AgentRepo } from '../../loops/agent/agent-repo.js';
import { doorbell, type Doorbell } from '../../loops/agent/doorbell.js';
import { gatedRefresh, type RefreshGate } from '../../loops/agent/refresh-gate.js';
import type { Clock } from '../../loops/runtime/clock.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { Trigger } from '../../loops/runtime/trigger.js';

/** What the doorbell needs: where it is and whose token, the branch, the timing, the clock and log. */
export interface RingGateContext {
  request: { url: string; cluster: string; token: string };
  opts: { cluster: string; branchPrefix: string; beaconIntervalMs: number; branchPollMs: number };
  deps: { clock: Clock; log: Logger };
}

// The doorbell and the refresh gate it opens: each ring hands its head to the gate, which
// tells it to the repository just before the refresh that ring opened (or skips a refresh
// when the mirror holds that head already: refresh-gate.ts).
export function ringGate(repo: AgentRepo, ctx: RingGateContext) {
  const { request, opts, deps } = ctx;
  const ref = clusterBranchRef(opts.branchPrefix, opts.cluster);
  const localHead = () => readRef(repo.gitdir, ref);
  // The head of the ring the doorbell is telling (onHead comes just before its "look again").
  let named: string | undefined;
  const bell = doorbell({
    url: request.url,
    // The hold is the hub's (55 s); the deadline leaves it room, so a silent hub is found out.
    wait: (after, signal) => waitForHead({ ...request, signal, timeoutMs: 70_000 }, after),
    beacon: (signal) => sendBeacon({ ...request, signal, timeoutMs: 10_000 }),
    localHead,
    clock: deps.clock,
    random: Math.random,
    log: deps.log,
    beaconIntervalMs: opts.beaconIntervalMs,
    minGapMs: opts.branchPollMs,
    onHead: (head) => void (named = head),
  });
  const takeNamed = (): string | undefined => {
    const head = named;
    named = undefined;
    return head;
  };
  const gated = gatedRefresh(repo, {
    connected: () => bell.connected(),
    held: localHead,
    announce: announcer(repo, deps.log),
  });
  return { bell, gated, rings: () => ringing(bell, gated.gate, takeNamed) };
}

/**
 * Returns what tells the repository the head a ring (or the branch poll) named, so that its
 * refresh may fetch that head alone (the render repository's mirror:
 * adapters/remote/fetch-known-head.ts); a head not taken is said once, at info, and the refresh
 * asks where the branch is.
 */
function announcer(repo: AgentRepo, log: Logger): (head: string) => void {
  const announce = (repo as Partial<Pick<RemoteHubRepo, 'announceHead'>>).announceHead?.bind(repo);
  return (head) =>
    announce?.(head, (why) =>
      log.info(
        `the head the doorbell or the branch poll named was not taken (${why}); reading where the branch is instead`,
      ),
    );
}

/**
 * Returns the trigger whose every event opens the gate with the head it named (`named` takes it:
 * the doorbell's onHead, the branch poll's onMove), so the refresh is skipped when the mirror
 * holds that head by then and may fetch it alone otherwise; an event naming none opens it as is.
 */
export function ringing(bell: Trigger, gate: RefreshGate, named: () => string | undefined): Trigger {
  return opening(bell, {
    open: (reason) => {
      const head = named();
      // A ring naming no head (the branch is gone) opens the gate as any other trigger does.
      if (head !== undefined) gate.rung(head, reason);
      else gate.open(reason);
    },
    rung: (head, reason) => gate.rung(head, reason),
    openFor: () => gate.openFor(),
  });
}

/** Returns the trigger whose every event also opens the gate: what it says may be a new commit. */
export function opening(trigger: Trigger | Doorbell, gate: RefreshGate): Trigger {
  return {
    name: trigger.name,
    start: (notify) =>
      trigger.start((reason) => {
        gate.open(reason);
        notify(reason);
      }),
    stop: () => trigger.stop(),
  };
}
