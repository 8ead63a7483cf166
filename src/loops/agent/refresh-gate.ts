// What keeps a connected doorbell's agent off the Git host between changes: every pass starts
// with a refresh (run-agent-pass.ts), and the periodic resync and drift watches run passes
// that need no new commit. While the doorbell is connected the refresh goes to Git only when
// something said the branch may have moved (the doorbell, the safety poll, a pass waiting for
// the hub's answer), or no refresh succeeded yet; otherwise the pass works on the mirror as it
// is, which the doorbell vouches for. Without the doorbell every refresh goes to Git, as before.
import type { AgentRepo } from './agent-repo.js';

/** When a refresh goes to Git. */
export interface RefreshGate {
  /** The next refresh goes to Git (`reason` is for the tests' eyes and the log). */
  open(reason: string): void;
  /** Why the gate is open now, or undefined when closed. */
  openFor(): string | undefined;
}

/** Returns the repository whose refresh goes through the gate, and the gate. */
export function gatedRefresh(
  repo: AgentRepo,
  opts: { connected: () => boolean },
): { repo: AgentRepo; gate: RefreshGate } {
  let reason: string | undefined = 'no refresh yet';
  const gate: RefreshGate = {
    open: (why) => void (reason ??= why),
    openFor: () => reason,
  };
  const refresh = async (): Promise<void> => {
    if (reason === undefined && opts.connected()) return;
    const was = reason;
    reason = undefined;
    try {
      await repo.refresh();
    } catch (error) {
      // A failed refresh is tried again at the next pass, whatever the doorbell says meanwhile.
      reason ??= was ?? 'the last refresh failed';
      throw error;
    }
  };
  // The repository's other members are read through, as they are when asked (its gitdir may
  // follow the cluster branch to another repository: agent-branch-repo.ts).
  return { repo: Object.assign(Object.create(repo) as AgentRepo, { refresh }), gate };
}
