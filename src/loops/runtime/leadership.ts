// Who may act (docs/production.md#leader-election): a hub replica runs passes only while it
// leads, an agent applies and writes status only while it holds its cluster's lease. Without an
// election (a single hub, `hub --once`, an agent without a lease) the process always leads.
// Implementations: noElection() here; the coordination.k8s.io Lease one in
// adapters/kube/lease-election.ts.

export interface Leadership {
  /** Whether an election is in use at all (false: noElection). */
  readonly elected: boolean;
  /**
   * Resolves true once this process leads (at once without an election), false when `signal`
   * aborts first. Safe to call again after leadership was lost.
   */
  acquire(signal: AbortSignal): Promise<boolean>;
  /**
   * Whether this process leads now and can keep writing: false as soon as its renewal is
   * overdue by the renew deadline, before the lease expires for the others. Writers check it
   * right before they move refs or apply; the refs' compare-and-swap stays the final guard.
   */
  isLeading(): boolean;
  /** Calls `listener` each time leadership is lost (renewal failed past the renew deadline, or taken). */
  onLost(listener: () => void): void;
  /** Gives the lease up (on a clean stop), so a standby takes over at once. */
  release(): Promise<void>;
}

/** Returns the leadership of a process that needs no election: it always leads. */
export function noElection(): Leadership {
  return {
    elected: false,
    acquire: async () => true,
    isLeading: () => true,
    onLost: () => undefined,
    release: async () => undefined,
  };
}
