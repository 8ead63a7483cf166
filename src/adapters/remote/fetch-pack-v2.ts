// Fetches the objects of a few commits the mirror lacks with one protocol v2 `fetch`
// (gitprotocol-v2(5)), straight as a POST to git-upload-pack: no ref advertisement first
// (ls-refs already said where the refs are), and only the wanted tips, where isomorphic-git's
// fetch reads the v0 advertisement of every ref and asks for every branch.
//
//   request   command=fetch, agent | delim | ofs-delta, no-progress, want <oid>…, have <oid>…, done | flush
//   answer    [shallow-info | wanted-refs sections, each ended by a delim] "packfile", then
//             side-band packets (1: pack bytes, 2: progress, 3: a fatal error) | flush
//
// The haves are the commits the mirror's tracking refs hold; `done` in the first request
// ends the negotiation there (stateless HTTP, one round): the server sends what the wants
// reach beyond what the haves reach. No `thin-pack`: the pack stands alone.
//
// The pack goes to a temp directory inside the mirror (mirror-layout.ts fetchTempDir), is
// indexed there with isomorphic-git's indexPack, and is moved into objects/pack pack first,
// index second: a pack without its index is what clearIncoming removes after a crash, and a
// half-written index never sits beside a pack in objects/pack. Refs are not touched here.
//
// A server that speaks only protocol v0 is asked the same in v0's words (`v0`): the wants, the
// first with the capabilities asked for (side-band-64k, ofs-delta, no-progress, among those the
// advertisement offered), flush, the haves, `done`; it answers NAK or ACK lines, then the
// side-band packets. Like v2's, that answer needs no HEAD, where isomorphic-git's fetch looks
// HEAD up and fails on a server whose HEAD names a branch nobody pushed.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { encodePktLine, flushPacket, packetText } from './pkt-line.js';
import { openHttpRequest } from './open-http-request.js';
import { pump } from './http-exchange.js';
import { delimPacket, v2Headers } from './ls-remote-refs.js';
import { fetchTempDir } from './mirror-layout.js';
import { ProtocolError } from './protocol-error.js';
import { readPktStream } from './read-pkt-stream.js';
import type { RemoteAccess } from './remote-access.js';
import { RemoteError } from './remote-error.js';
import { damagedPackError, libraryReason } from './damaged-pack-error.js';
import { httpStatusError, toRemoteError } from './to-remote-error.js';

/** What one fetch brought: the pack's name in objects/pack (null: nothing new) and its size. */
export interface FetchedPack {
  pack: string | null;
  bytes: number;
}

/** Fetches the objects `wants` reach beyond `haves` into a new pack of the mirror; returns its name. */
export async function fetchPackV2(
  access: RemoteAccess & {
    wants: readonly string[];
    haves: readonly string[];
    /** Ask in protocol v0, with the capabilities the v0 advertisement offered. */
    v0?: { capabilities: ReadonlySet<string> };
  },
): Promise<FetchedPack> {
  const errors = { action: 'fetch', url: access.url, secrets: access.secrets };
  const body = access.v0 ? v0Request(access.wants, access.haves, access.v0.capabilities) : v2Request(access);
  const headers = access.v0 ? v0Headers : v2Headers;
  const temp = join(access.gitdir, fetchTempDir);
  await mkdir(temp, { recursive: true, mode: 0o700 });
  const name = `fetch-${randomBytes(6).toString('hex')}`;
  const tempPack = join(temp, `${name}.pack`);
  try {
    const req = openHttpRequest({
      url: `${access.url}/git-upload-pack`,
      method: 'POST',
      headers: { ...access.authHeaders, ...headers, 'Content-Length': String(body.length) },
      timeouts: access.timeouts,
      signal: access.signal,
      gate: access.gate,
    });
    void pump(
      (async function* () {
        yield body;
      })(),
      req.request,
    ).catch((error: unknown) => req.request.destroy(error as Error));
    const res = await req.response.catch((error: unknown) => Promise.reject(toRemoteError(error, errors)));
    if (res.statusCode !== 200) {
      res.resume();
      throw httpStatusError(res.statusCode ?? 0, res.statusMessage ?? '', errors);
    }
    const bytes = await receivePack(res, tempPack, access.v0 !== undefined).catch((error: unknown) => {
      throw req.failure() ?? error;
    });
    return { pack: await storePack(access.gitdir, temp, name), bytes };
  } catch (error) {
    if (error instanceof RemoteError) throw error;
    if (error instanceof ProtocolError) throw fromProtocolError(access, error);
    throw toRemoteError(error, errors);
  } finally {
    await rm(join(temp, `${name}.pack`), { force: true });
    await rm(join(temp, `${name}.idx`), { force: true });
  }
}

/** Whether a v0 fetch can be asked of a server with these capabilities (its pack comes in side-band packets). */
export function v0FetchPossible(capabilities: ReadonlySet<string>): boolean {
  return capabilities.has('side-band-64k');
}

function v2Request(access: { wants: readonly string[]; haves: readonly string[] }): Buffer {
  return Buffer.concat([
    encodePktLine('command=fetch\n'),
    encodePktLine('agent=git/gitfleet\n'),
    delimPacket,
    encodePktLine('ofs-delta\n'),
    encodePktLine('no-progress\n'),
    ...access.wants.map((oid) => encodePktLine(`want ${oid}\n`)),
    ...access.haves.map((oid) => encodePktLine(`have ${oid}\n`)),
    encodePktLine('done\n'),
    flushPacket,
  ]);
}

function v0Request(wants: readonly string[], haves: readonly string[], offered: ReadonlySet<string>): Buffer {
  const caps = ['side-band-64k', 'ofs-delta', 'no-progress'].filter((c) => offered.has(c));
  return Buffer.concat([
    ...wants.map((oid, i) =>
      encodePktLine(i === 0 ? `want ${oid} ${[...caps, 'agent=git/gitfleet'].join(' ')}\n` : `want ${oid}\n`),
    ),
    flushPacket,
    ...haves.map((oid) => encodePktLine(`have ${oid}\n`)),
    encodePktLine('done\n'),
  ]);
}

const v0Headers = {
  'User-Agent': 'git/gitfleet',
  'Content-Type': 'application/x-git-upload-pack-request',
  Accept: 'application/x-git-upload-pack-result',
};

/** Writes the answer's pack (side-band 1 of the packfile section) to `path`; returns the bytes received. */
async function receivePack(answer: AsyncIterable<Buffer>, path: string, v0: boolean): Promise<number> {
  const file = await open(path, 'w', 0o600);
  let section: 'header' | 'skip' | 'pack' | 'done' = 'header';
  let bytes = 0;
  try {
    for await (const packet of readPktStream(answer)) {
      if (packet.type === 'data') bytes += packet.data.length + 4;
      // v0: the NAK and ACK lines, then side-band packets (their first byte 1, 2 or 3) until flush.
      if (v0 && section === 'header' && packet.type === 'data' && packet.data[0]! <= 3) section = 'pack';
      const text = section === 'pack' ? null : packetText(packet);
      if (text?.startsWith('ERR '))
        throw new RemoteError('RemoteFailed', `the server said: ${text.slice(4)}`);
      if (section === 'header' && v0) {
        if (!/^(NAK|ACK |shallow |unshallow )/.test(text ?? ''))
          throw new ProtocolError('BadAnswer', `not a fetch answer: ${JSON.stringify(text)}`);
      } else if (section === 'header') {
        if (text === 'packfile') section = 'pack';
        else if (text === 'shallow-info' || text === 'wanted-refs' || text === 'acknowledgments')
          section = 'skip';
        else throw new ProtocolError('BadAnswer', `not a fetch answer: ${JSON.stringify(text)}`);
      } else if (section === 'skip') {
        if (packet.type === 'delim') section = 'header';
        else if (packet.type === 'flush') throw new ProtocolError('BadAnswer', 'the answer holds no pack');
      } else if (section === 'pack') {
        if (packet.type === 'flush') section = 'done';
        else if (packet.type === 'data') await sideBand(file, packet.data);
      }
    }
  } finally {
    await file.close();
  }
  if (section !== 'done') throw new ProtocolError('BadAnswer', 'the pack was cut off (no final flush)');
  return bytes;
}

async function sideBand(file: Awaited<ReturnType<typeof open>>, data: Buffer): Promise<void> {
  const band = data[0];
  if (band === 1) await file.write(data.subarray(1));
  else if (band === 3)
    throw new RemoteError('RemoteFailed', `the server said: ${data.subarray(1).toString('utf8').trim()}`);
}

/** Indexes the temp pack and moves it, then its index, into objects/pack; returns its name, or null for an empty pack. */
async function storePack(gitdir: string, temp: string, name: string): Promise<string | null> {
  const tempPack = join(temp, `${name}.pack`);
  const size = (await stat(tempPack)).size;
  const head = Buffer.alloc(32);
  const file = await open(tempPack, 'r');
  try {
    await file.read(head, 0, 12, 0);
    await file.read(head, 12, 20, Math.max(0, size - 20));
  } finally {
    await file.close();
  }
  if (size < 32 || head.toString('latin1', 0, 4) !== 'PACK')
    throw new ProtocolError('DamagedPack', `a fetched pack of ${size} bytes is not a pack`);
  if (head.readUInt32BE(8) === 0) return null;
  await git
    .indexPack({ fs, dir: gitdir, gitdir, filepath: join(fetchTempDir, `${name}.pack`) })
    .catch((error: unknown) => {
      throw new ProtocolError('DamagedPack', `it cannot be indexed: ${libraryReason(error)}`);
    });
  const packName = `pack-${head.subarray(12).toString('hex')}`;
  const packDir = join(gitdir, 'objects', 'pack');
  await mkdir(packDir, { recursive: true });
  await rename(tempPack, join(packDir, `${packName}.pack`));
  await rename(join(temp, `${name}.idx`), join(packDir, `${packName}.idx`));
  return `${packName}.pack`;
}

/** A garbled pack is DamagedPack (the mirror is rebuilt), a cut-off answer Unreachable (tried again); nothing was stored either way. */
function fromProtocolError(access: RemoteAccess, error: ProtocolError): RemoteError {
  const url = access.url;
  if (error.code === 'DamagedPack')
    return damagedPackError({ url, gitdir: access.gitdir, reason: error.message });
  return new RemoteError(
    'Unreachable',
    `${url}: fetch failed: the answer was cut off or garbled (${error.message}); nothing moved, tried again at the next refresh`,
  );
}
