// How long a request to a git server may take to connect, and how long it may stay silent
// (no byte sent or received) once connected, before it fails as Unreachable. A server that
// accepts a connection and never answers would otherwise hold a pass, and every event queued
// behind it, forever. The silence limit does not cut short a large fetch that keeps streaming.
//
// A server that keeps sending a byte now and then (a stuck server or proxy trickling bytes)
// stays under any silence limit, so each operation also has an overall deadline: a fetch (its
// advertisement, ls-refs and pack), a push, an ls-refs probe. The defaults leave a large
// fetch or push minutes; an operation past its deadline fails as Unreachable and is retried.

/** Connect and silence limits of every request, and the deadline of each operation. */
export interface RemoteTimeouts {
  /** From sending the request until the TCP connection is up. */
  connectMs: number;
  /** Longest stretch without a byte in either direction once connected. */
  idleMs: number;
  /** Longest a whole fetch may take (default 5 min). */
  fetchDeadlineMs?: number;
  /** Longest a whole push may take (default 5 min). */
  pushDeadlineMs?: number;
  /** Longest one ls-refs probe of a branch may take (default 1 min). */
  lsRefsDeadlineMs?: number;
}

/** Returns the defaults: 10 s to connect, 30 s of silence, 5 min per fetch or push, 1 min per ls-refs. */
export function defaultRemoteTimeouts(): Required<RemoteTimeouts> {
  return {
    connectMs: 10_000,
    idleMs: 30_000,
    fetchDeadlineMs: 300_000,
    pushDeadlineMs: 300_000,
    lsRefsDeadlineMs: 60_000,
  };
}
