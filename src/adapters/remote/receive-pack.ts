// The second request of a push over smart HTTP (gitprotocol-http(5), gitprotocol-pack(5)),
// after the ref advertisement (discover-refs.ts):
//
//   POST <url>/git-receive-pack    `<old> <new> <ref>` commands, a flush, the pack; answered by
//                                  report-status: `unpack ok`, then `ok <ref>` or
//                                  `ng <ref> <reason>` per ref
//
// receive-pack checks each command's old id under the ref's lock, so a command is a
// compare-and-swap; with `atomic`, all refs move or none.
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

/** Sends the commands and the pack; returns receive-pack's answer per ref, or throws when it could not unpack. */
export async function sendReceivePack(
  target: ServiceTarget & {
    commands: readonly PushCommand[];
    capabilities: readonly string[];
    pack: AsyncIterable<Buffer>;
  },
): Promise<PushReport> {
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
  }).catch((error: unknown) => Promise.reject(toRemoteError(error, target.errors)));
  if (answer.status !== 200) throw httpStatusError(answer.status, answer.statusText, target.errors);
  return parseReport(answer.body, target.errors);
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
