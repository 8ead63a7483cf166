// What keeps a connected doorbell's agent off the Git host between changes: every pass starts
// with a refresh (run-agent-pass.ts), and the periodic resync and drift watches run passes
// that need no new commit. While the doorbell is connected the refresh goes to Git only when
// something said the branch may have moved (the doorbell, the safety poll, a pass waiting for
// the hub's answer), or no refresh succeeded yet; otherwise the pass works on the mirror as it
// is, which the doorbell vouches for. Without the doorbell every refresh goes to Git, as before.
//
// A ring names the head, so the gate carries it to the refresh the ring opened: told to the
// repository (`announce`) just before that refresh, which may fetch it alone (one read a ring:
// adapters/remote/fetch-known-head.ts), or no refresh at all when the mirror holds it already
// (`held`): the doorbell's first answer at a start names the head the first pass is reading,
// and a ring that comes while a refresh reads the head it names has nothing left to say.
import type { AgentRepo } from './agent-repo.js';

/** When a refresh goes to Git. */
export interface RefreshGate {
  /** The next refresh goes to Git (`reason` is for the tests' eyes and the log). */
  open(reason: string): void;
  /** A ring named `head`: the next refresh fetches it, unless the mirror holds it by then (or else opened the gate too). */
  rung(head: string, reason: string): void;
  /** Why the gate is open now, or undefined when closed. */
  openFor(): string | undefined;
}

/** How the gate learns the doorbell's state and hands a ring's head on. */
export interface RefreshGateOptions {
  connected: () => boolean;
  /** The head of the branch the mirror holds now (a ring naming it needs no refresh). */
  held?: () => Promise<string | null>;
  /** Tells the repository the head a ring named, just before the refresh that ring opened. */
  announce?: (head: string) => void;
}

/** Returns the repository whose refresh goes through the gate, and the gate. */
export function gatedRefresh(
  repo: AgentRepo,
  opts: RefreshGateOptions,
): { repo: AgentRepo; gate: RefreshGate } {
  let reason: string | undefined = 'no refresh yet';
  // The head of the last ring, while rings alone opened the gate.
  let ring: string | undefined;
  const gate: RefreshGate = {
    open: (why) => {
      reason ??= why;
      ring = undefined;
    },
    rung: (head, why) => {
      if (reason !== undefined && ring === undefined) return; // else opened it: asked the usual way
      reason ??= why;
      ring = head;
    },
    openFor: () => reason,
  };
  const refresh = async (): Promise<void> => {
    if (reason === undefined && opts.connected()) return;
    // The held head is read first: a ring or an opening meanwhile is seen in `ring` after it.
    const held = ring !== undefined && opts.held ? await opts.held() : undefined;
    if (ring !== undefined && ring === held && opts.connected()) {
      [reason, ring] = [undefined, undefined];
      return;
    }
    const [was, head] = [reason, ring];
    [reason, ring] = [undefined, undefined];
    if (head !== undefined) opts.announce?.(head);
    try {
      await repo.refresh();
    } catch (error) {
      // A failed refresh is tried again at the next pass, whatever the doorbell says meanwhile.
      if (reason === undefined) [reason, ring] = [was ?? 'the last refresh failed', head];
      throw error;
    }
  };
  // The repository's other members are read through, as they are when asked (its gitdir may
  // follow the cluster branch to another repository: agent-branch-repo.ts).
  return { repo: Object.assign(Object.create(repo) as AgentRepo, { refresh }), gate };
}
