// The second request of a push over smart HTTP (gitprotocol-http(5), gitprotocol-pack(5)),
// after the ref advertisement (discover-refs.ts):
//
//   POST <url>/git-receive-pack    `<old> <new> <ref>` commands, a flush, the pack; answered by
//                                  report-status: `unpack ok`, then `ok <ref>` or
//                                  `ng <ref> <reason>` per ref
//
// receive-pack checks each command's old id under the ref's lock, so a command is a
// compare-and-swap; with `atomic`, all refs move or none.
//
// With `side-band-64k` asked for (when advertised), the answer is multiplexed: each pkt-line's
// first byte is its band, 1 the report-status itself, 2 the remote's messages (what a hook
// prints: "only agent a may write here"), 3 a fatal error. The messages are kept so that a
// refusal reaches the user in the server's own words, not just as "pre-receive hook declined".
import type { ServiceTarget } from './discover-refs.js';
import { exchange } from './http-exchange.js';
import { encodePktLine, decodePktLines, flushPacket, packetText } from './pkt-line.js';
import { httpStatusError, toRemoteError, type ErrorContext } from './to-remote-error.js';
import { RemoteError } from './remote-error.js';

/** One ref update: `old` all zeros to create. */
export interface PushCommand {
  ref: string;
  old: string;
  new: string;
}

/** receive-pack's answer per ref: null when it moved, else its reason. */
export type PushReport = Map<string, string | null>;

/** The per-ref answer and the remote's messages (side-band 2), one per line. */
export interface PushAnswer {
  report: PushReport;
  messages: string[];
}

/** Sends the commands and the pack; returns receive-pack's answer per ref, or throws when it could not unpack. */
export async function sendReceivePack(
  target: ServiceTarget & {
    commands: readonly PushCommand[];
    capabilities: readonly string[];
    pack: AsyncIterable<Buffer>;
  },
): Promise<PushAnswer> {
  const answer = await exchange({
    url: `${target.url}/git-receive-pack`,
    method: 'POST',
    headers: {
      ...target.headers,
      'User-Agent': 'git/gitfleet',
      'Content-Type': 'application/x-git-receive-pack-request',
      Accept: 'application/x-git-receive-pack-result',
    },
    body: requestBody(target.commands, target.capabilities, target.pack),
    timeouts: target.timeouts,
    signal: target.signal,
    gate: target.gate,
  }).catch((error: unknown) => Promise.reject(toRemoteError(error, target.errors)));
  if (answer.status !== 200) throw httpStatusError(answer.status, answer.statusText, target.errors);
  if (!target.capabilities.includes('side-band-64k'))
    return { report: parseReport(answer.body, target.errors), messages: [] };
  const bands = demuxSideBand(answer.body);
  if (bands.fatal !== undefined) {
    throw new RemoteError(
      'RemoteFailed',
      `${target.errors.url}: push failed: the remote said: ${bands.fatal}`,
    );
  }
  return { report: parseReport(bands.primary, target.errors), messages: bands.messages };
}

/** Returns the bands of a side-band answer: band 1's bytes, band 2's lines, band 3's text. */
export function demuxSideBand(body: Buffer): { primary: Buffer; messages: string[]; fatal?: string } {
  const primary: Buffer[] = [];
  let progress = '';
  let fatal: string | undefined;
  for (const packet of decodePktLines(body)) {
    if (packet.type !== 'data' || packet.data.length === 0) continue;
    const payload = packet.data.subarray(1);
    if (packet.data[0] === 1) primary.push(payload);
    else if (packet.data[0] === 2) progress += payload.toString('utf8');
    else if (packet.data[0] === 3) fatal = (fatal ?? '') + payload.toString('utf8').trim();
  }
  const messages = progress
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return { primary: Buffer.concat(primary), messages, ...(fatal === undefined ? {} : { fatal }) };
}

async function* requestBody(
  commands: readonly PushCommand[],
  capabilities: readonly string[],
  pack: AsyncIterable<Buffer>,
): AsyncGenerator<Buffer> {
  const lines = commands.map(
    (c, i) => `${c.old} ${c.new} ${c.ref}${i === 0 ? `\0${capabilities.join(' ')}` : ''}\n`,
  );
  yield Buffer.concat([...lines.map((l) => encodePktLine(l)), flushPacket]);
  yield* pack;
}

/** Returns the per-ref results of a report-status answer. */
export function parseReport(body: Buffer, errors: ErrorContext): PushReport {
  const report: PushReport = new Map();
  for (const packet of decodePktLines(body)) {
    const line = packetText(packet);
    if (line === null) continue;
    if (line.startsWith('unpack ')) {
      if (line !== 'unpack ok')
        throw new RemoteError(
          'RemoteFailed',
          `${errors.url}: the remote could not store the pack: ${line.slice(7)}`,
        );
    } else if (line.startsWith('ok ')) report.set(line.slice(3), null);
    else if (line.startsWith('ng ')) {
      const [ref = '', ...reason] = line.slice(3).split(' ');
      report.set(ref, reason.join(' ') || 'rejected');
    }
  }
  return report;
}
