// "Where is my branch now?" for a poller: one ls-refs of the one ref (ls-remote-refs.ts), so
// an agent asking every second costs the host an answer that does not grow with the fleet.
import type { ServiceTarget } from './discover-refs.js';
import { lsRemoteRefs } from './ls-remote-refs.js';

export type BranchProbe =
  | { type: 'at'; oid: string; bytes: number }
  | { type: 'absent'; bytes: number }
  | { type: 'unsupported'; reason: string };

/** Returns where `ref` points on the remote (protocol v2 ls-refs), or that the server does not speak v2. */
export async function lsRemoteBranch(target: ServiceTarget & { ref: string }): Promise<BranchProbe> {
  const probe = await lsRemoteRefs({ ...target, refs: [target.ref] });
  if (probe.type === 'unsupported') return probe;
  const oid = probe.refs.get(target.ref);
  return oid === undefined ? { type: 'absent', bytes: probe.bytes } : { type: 'at', oid, bytes: probe.bytes };
}
