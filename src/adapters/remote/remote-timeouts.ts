// How long a request to a git server may take to connect, and how long it may stay silent
// (no byte sent or received) once connected, before it fails as Unreachable. A server that
// accepts a connection and never answers would otherwise hold a pass, and every event queued
// behind it, forever. The silence limit, not a total limit, is what bounds a request: a large
// fetch that keeps streaming is never cut short.

/** Connect and silence limits of every request to a remote. */
export interface RemoteTimeouts {
  /** From sending the request until the TCP connection is up. */
  connectMs: number;
  /** Longest stretch without a byte in either direction once connected. */
  idleMs: number;
}

/** Returns the defaults: 10 s to connect, 30 s of silence. */
export function defaultRemoteTimeouts(): RemoteTimeouts {
  return { connectMs: 10_000, idleMs: 30_000 };
}
