// What `/readyz` answers (docs/production.md#health-and-metrics): ready once the first pass is
// done and the lease is held, or no lease is needed. `/healthz` answers whether the process's
// loop is alive. Set by the loops and the leadership; read by the metrics server.

export class Readiness {
  private firstPass = false;
  private leading: boolean | 'notNeeded' = 'notNeeded';
  private alive = true;

  /** The first pass finished (whatever its outcome: a failing source is reported, not unready). */
  firstPassDone(): void {
    this.firstPass = true;
  }

  /**
   * The leadership changed (true: leads; false: stands by); never called without an election.
   * Either way the process is alive: a loop that stopped because its lease was lost is followed
   * by a standby or a new term, not by the end of the process.
   */
  setLeading(leading: boolean): void {
    this.leading = leading;
    this.alive = true;
  }

  /** The loop stopped for good (stopping, or a fatal error). */
  setStopped(): void {
    this.alive = false;
  }

  /** Returns whether the process is ready, and why not. */
  ready(): { ready: boolean; reason: string } {
    if (!this.alive) return { ready: false, reason: 'stopping' };
    if (this.leading === false)
      return { ready: false, reason: 'standing by: another replica holds the lease' };
    if (!this.firstPass) return { ready: false, reason: 'the first pass has not finished' };
    return { ready: true, reason: 'ok' };
  }

  /** Returns whether the process's loop is alive. */
  healthy(): boolean {
    return this.alive;
  }
}
