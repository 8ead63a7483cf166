// The first request of every smart-HTTP exchange (gitprotocol-http(5)): the remote's refs and
// capabilities, in protocol version 0/1 form (no Git-Protocol header is sent):
//
//   GET <url>/info/refs?service=<service>
//   # service=<service>, flush, `<id> <ref>\0<capabilities>` (an empty repository names the
//   placeholder `capabilities^{}` with an all-zero id), `<id> <ref>` for the others, flush
//
// A push reads it to compare and swap; a refresh reads it to see whether anything moved
// before it asks isomorphic-git to fetch.
import { exchange } from './http-exchange.js';
import { decodePktLines, packetText } from './pkt-line.js';
import type { RateLimitGate } from './rate-limit-gate.js';
import type { RemoteTimeouts } from './remote-timeouts.js';
import { httpStatusError, toRemoteError, type ErrorContext } from './to-remote-error.js';

/** Where to send a request and what to send with it. */
export interface ServiceTarget {
  url: string;
  /** Authorization and other headers sent with every request. */
  headers: Record<string, string>;
  errors: ErrorContext;
  timeouts: RemoteTimeouts;
  signal?: AbortSignal | undefined;
  /** The repository's rate-limit gate (rate-limit-gate.ts). */
  gate?: RateLimitGate | undefined;
}

/** What the remote advertised. */
export interface RefAdvertisement {
  refs: Map<string, string>;
  capabilities: Set<string>;
}

export type GitService = 'git-upload-pack' | 'git-receive-pack';

const zeroOid = '0000000000000000000000000000000000000000';

/** Returns the remote's refs and capabilities for the service. */
export async function discoverRefs(
  target: ServiceTarget & { service: GitService },
): Promise<RefAdvertisement> {
  const answer = await exchange({
    url: `${target.url}/info/refs?service=${target.service}`,
    method: 'GET',
    headers: { ...target.headers, 'User-Agent': 'git/gitfleet' },
    timeouts: target.timeouts,
    signal: target.signal,
    gate: target.gate,
  }).catch((error: unknown) => Promise.reject(toRemoteError(error, target.errors)));
  if (answer.status !== 200) throw httpStatusError(answer.status, answer.statusText, target.errors);
  if (!answer.headers['content-type']?.startsWith(`application/x-${target.service}-advertisement`)) {
    throw toRemoteError({ code: 'SmartHttpError' }, target.errors);
  }
  return parseAdvertisement(answer.body);
}

/** Returns the refs and capabilities of an advertisement. */
export function parseAdvertisement(body: Buffer): RefAdvertisement {
  const refs = new Map<string, string>();
  const capabilities = new Set<string>();
  for (const packet of decodePktLines(body)) {
    const line = packetText(packet);
    if (line === null || line.startsWith('#')) continue;
    const [refPart = '', caps] = line.split('\0');
    if (caps !== undefined) for (const cap of caps.split(' ').filter(Boolean)) capabilities.add(cap);
    const [oid = '', ref = ''] = refPart.split(' ');
    if (oid !== zeroOid && ref !== 'capabilities^{}') refs.set(ref, oid);
  }
  return { refs, capabilities };
}
