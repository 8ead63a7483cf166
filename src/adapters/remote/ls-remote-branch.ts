// The cheapest question an agent can ask its Git host, "where is my branch now?": one protocol
// v2 `ls-refs` (gitprotocol-v2(5)) limited by `ref-prefix` to the one ref, sent straight as a
// POST to git-upload-pack with `Git-Protocol: version=2`. The answer names that ref only, so
// its size does not grow with the fleet (a v0 ref advertisement lists every cluster's
// branches: about 3 refs × 80 bytes per cluster, on every poll). `ref-prefix` matches
// prefixes, so cluster `a1` also hears of `a10`…`a19`: only the exact name is read. A server that does not speak
// v2 answers the POST with an error or a v0 answer; then the caller is told `unsupported` and
// can fall back to the full advertisement (discover-refs.ts).
import { exchange } from './http-exchange.js';
import { decodePktLines, encodePktLine, flushPacket, packetText } from './pkt-line.js';
import type { ServiceTarget } from './discover-refs.js';
import { toRemoteError } from './to-remote-error.js';

export type BranchProbe =
  | { type: 'at'; oid: string; bytes: number }
  | { type: 'absent'; bytes: number }
  | { type: 'unsupported'; reason: string };

const delimPacket = Buffer.from('0001', 'latin1');

/** Returns where `ref` points on the remote (protocol v2 ls-refs), or that the server does not speak v2. */
export async function lsRemoteBranch(target: ServiceTarget & { ref: string }): Promise<BranchProbe> {
  const body = Buffer.concat([
    encodePktLine('command=ls-refs\n'),
    encodePktLine('agent=git/gitfleet\n'),
    delimPacket,
    encodePktLine(`ref-prefix ${target.ref}\n`),
    flushPacket,
  ]);
  const answer = await exchange({
    url: `${target.url}/git-upload-pack`,
    method: 'POST',
    headers: {
      ...target.headers,
      'User-Agent': 'git/gitfleet',
      'Git-Protocol': 'version=2',
      'Content-Type': 'application/x-git-upload-pack-request',
      Accept: 'application/x-git-upload-pack-result',
      'Content-Length': String(body.length),
    },
    body: (async function* () {
      yield body;
    })(),
    maxResponseBytes: 1 << 20,
    timeouts: target.timeouts,
    signal: target.signal,
  }).catch((error: unknown) => Promise.reject(toRemoteError(error, target.errors)));
  if (answer.status !== 200)
    return { type: 'unsupported', reason: `HTTP ${answer.status} ${answer.statusText}` };
  let packets;
  try {
    packets = decodePktLines(answer.body);
  } catch (error) {
    return { type: 'unsupported', reason: (error as Error).message };
  }
  const bytes = answer.body.length;
  for (const packet of packets) {
    const line = packetText(packet);
    if (line === null) continue;
    // `<oid> <ref>[ symref-target:… | peeled:…]`; a ref-prefix match may be a longer name.
    const [oid = '', ref = ''] = line.split(' ');
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid))
      return { type: 'unsupported', reason: `not an ls-refs answer: ${JSON.stringify(line.slice(0, 60))}` };
    if (ref === target.ref) return { type: 'at', oid, bytes };
  }
  return { type: 'absent', bytes };
}
