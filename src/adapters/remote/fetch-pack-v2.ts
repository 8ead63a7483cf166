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
  access: RemoteAccess & { wants: readonly string[]; haves: readonly string[] },
): Promise<FetchedPack> {
  const errors = { action: 'fetch', url: access.url, secrets: access.secrets };
  const body = Buffer.concat([
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
  const temp = join(access.gitdir, fetchTempDir);
  await mkdir(temp, { recursive: true, mode: 0o700 });
  const name = `fetch-${randomBytes(6).toString('hex')}`;
  const tempPack = join(temp, `${name}.pack`);
  try {
    const req = openHttpRequest({
      url: `${access.url}/git-upload-pack`,
      method: 'POST',
      headers: { ...access.authHeaders, ...v2Headers, 'Content-Length': String(body.length) },
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
    const bytes = await receivePack(res, tempPack).catch((error: unknown) => {
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

/** Writes the answer's pack (side-band 1 of the packfile section) to `path`; returns the bytes received. */
async function receivePack(answer: AsyncIterable<Buffer>, path: string): Promise<number> {
  const file = await open(path, 'w', 0o600);
  let section: 'header' | 'skip' | 'pack' | 'done' = 'header';
  let bytes = 0;
  try {
    for await (const packet of readPktStream(answer)) {
      if (packet.type === 'data') bytes += packet.data.length + 4;
      const text = section === 'pack' ? null : packetText(packet);
      if (text?.startsWith('ERR '))
        throw new RemoteError('RemoteFailed', `the server said: ${text.slice(4)}`);
      if (section === 'header') {
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
