// The cheapest question a client can ask its Git host, "where are these branches now?": one
// protocol v2 `ls-refs` (gitprotocol-v2(5)) with one `ref-prefix` per ref, sent straight as a
// POST to git-upload-pack with `Git-Protocol: version=2`. The answer names those refs (and
// refs whose names they begin: cluster `a1` also hears of `a10`…`a19`; only exact names are
// kept), so its size does not grow with the fleet, where a v0 ref advertisement lists every
// cluster's branches (about 3 refs × 80 bytes per cluster). A server that does not speak v2
// answers the POST with an error, nothing or a v0 answer; the caller is told `unsupported` and can
// fall back to the full advertisement (discover-refs.ts).
import { exchange } from './http-exchange.js';
import { decodePktLines, encodePktLine, flushPacket, packetText } from './pkt-line.js';
import type { ServiceTarget } from './discover-refs.js';
import { toRemoteError } from './to-remote-error.js';

export type RefsProbe =
  { type: 'refs'; refs: Map<string, string>; bytes: number } | { type: 'unsupported'; reason: string };

/** The headers of every protocol v2 request to git-upload-pack. */
export const v2Headers = {
  'User-Agent': 'git/gitfleet',
  'Git-Protocol': 'version=2',
  'Content-Type': 'application/x-git-upload-pack-request',
  Accept: 'application/x-git-upload-pack-result',
};

export const delimPacket = Buffer.from('0001', 'latin1');

/** Returns where each of `refs` points on the remote (absent ones left out), or that the server does not speak v2. */
export async function lsRemoteRefs(target: ServiceTarget & { refs: readonly string[] }): Promise<RefsProbe> {
  const body = Buffer.concat([
    encodePktLine('command=ls-refs\n'),
    encodePktLine('agent=git/gitfleet\n'),
    delimPacket,
    ...target.refs.map((ref) => encodePktLine(`ref-prefix ${ref}\n`)),
    flushPacket,
  ]);
  const answer = await exchange({
    url: `${target.url}/git-upload-pack`,
    method: 'POST',
    headers: { ...target.headers, ...v2Headers, 'Content-Length': String(body.length) },
    body: (async function* () {
      yield body;
    })(),
    maxResponseBytes: 1 << 20,
    timeouts: target.timeouts,
    signal: target.signal,
    gate: target.gate,
  }).catch((error: unknown) => Promise.reject(toRemoteError(error, target.errors)));
  if (answer.status !== 200)
    return { type: 'unsupported', reason: `HTTP ${answer.status} ${answer.statusText}` };
  let packets;
  try {
    packets = decodePktLines(answer.body);
  } catch (error) {
    return { type: 'unsupported', reason: (error as Error).message };
  }
  // A v2 answer ends with a flush, even when no ref matches; a v0 server that cannot read the
  // request answers 200 with nothing (upload-pack died on "command=ls-refs").
  if (packets.at(-1)?.type !== 'flush') return { type: 'unsupported', reason: 'no ls-refs answer' };
  const wanted = new Set(target.refs);
  const refs = new Map<string, string>();
  for (const packet of packets) {
    const line = packetText(packet);
    if (line === null) continue;
    // `<oid> <ref>[ symref-target:… | peeled:…]`; a ref-prefix match may be a longer name.
    const [oid = '', ref = ''] = line.split(' ');
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid))
      return { type: 'unsupported', reason: `not an ls-refs answer: ${JSON.stringify(line.slice(0, 60))}` };
    if (wanted.has(ref)) refs.set(ref, oid);
  }
  return { type: 'refs', refs, bytes: answer.body.length };
}
