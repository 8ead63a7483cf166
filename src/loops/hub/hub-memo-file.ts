// The file that holds the hub's persisted memo (hub-memo.ts): `<gitdir>/gitfleet/hub-memo-v2`,
// outside every branch, so the branches' formats stay as they are. Three parts:
//
//   1. the header, one line of JSON: the format version, the branch prefix, and the refs the
//      hub's pass left (the bindings branch and every cluster branch) when the file was written;
//   2. the body: the encoded graph (graph-codec.ts, binary), and a newline;
//   3. the SHA-1 of parts 1 and 2, hex, on a line of its own.
//
// It is written whole to a temporary file in the same directory (mode 0600) and renamed over
// the last one, so a reader sees the old file or the new one. A file that does not match (another
// version, refs moved since, truncated, a flipped byte) is reported as ignored, with the reason.
// Version 1 held the graph as JSON text; a hub that writes version 2 removes a version 1 file.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The memo's format version: bump it whenever what hub-memo.ts keeps changes shape. */
export const hubMemoVersion = 2;

export interface HubMemoHeader {
  version: number;
  /** The FleetConfig's branchPrefix of the pass that wrote it. */
  prefix: string;
  /** Full ref name → commit: the bindings branch and every cluster branch under the prefix. */
  refs: Record<string, string>;
}

export type HubMemoRead =
  | { type: 'read'; header: HubMemoHeader; body: Buffer }
  | { type: 'absent' }
  | { type: 'ignored'; reason: string };

/** Returns where the memo of the repository at `gitdir` lives. */
export function hubMemoPath(gitdir: string): string {
  return join(gitdir, 'gitfleet', `hub-memo-v${hubMemoVersion}`);
}

/**
 * Returns the memo's header and body when the file is whole, of this version, and was written
 * at the refs `refsNow` reads under its prefix; else why it is not used. Never throws.
 */
export async function readHubMemoFile(
  gitdir: string,
  refsNow: (prefix: string) => Promise<Record<string, string>>,
): Promise<HubMemoRead> {
  let data: Buffer;
  try {
    data = await readFile(hubMemoPath(gitdir));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { type: 'absent' };
    return { type: 'ignored', reason: `unreadable: ${(error as Error).message}` };
  }
  try {
    const checked = checkedContent(data);
    if ('reason' in checked) return { type: 'ignored', reason: checked.reason };
    const header = JSON.parse(checked.header) as HubMemoHeader;
    if (header.version !== hubMemoVersion)
      return { type: 'ignored', reason: `format version ${header.version}, not ${hubMemoVersion}` };
    const moved = movedRef(header.refs, await refsNow(header.prefix));
    if (moved) return { type: 'ignored', reason: `written at other refs (${moved})` };
    return { type: 'read', header, body: checked.body };
  } catch (error) {
    return { type: 'ignored', reason: `unreadable: ${(error as Error).message}` };
  }
}

// The header line and the body when the trailing checksum is theirs, else what is wrong.
function checkedContent(data: Buffer): { header: string; body: Buffer } | { reason: string } {
  const sumStart = data.length - 41;
  if (sumStart < 0 || data[data.length - 1] !== 0x0a || data[sumStart - 1] !== 0x0a)
    return { reason: 'truncated: no checksum line' };
  const sum = data.subarray(sumStart, data.length - 1).toString('latin1');
  const content = data.subarray(0, sumStart);
  if (createHash('sha1').update(content).digest('hex') !== sum)
    return { reason: 'its checksum does not match' };
  const headerEnd = content.indexOf(0x0a);
  if (headerEnd < 0 || headerEnd === content.length - 1) return { reason: 'not a header and a body' };
  return {
    header: content.subarray(0, headerEnd).toString('utf8'),
    body: content.subarray(headerEnd + 1, content.length - 1),
  };
}

// The first ref whose head differs between the memo and the repository, as `ref: memo → now`.
function movedRef(memo: Record<string, string>, now: Record<string, string>): string | undefined {
  const names = new Set([...Object.keys(memo), ...Object.keys(now)]);
  for (const name of names) {
    if (memo[name] !== now[name]) return `${name}: ${memo[name] ?? 'none'} → ${now[name] ?? 'none'}`;
  }
  return undefined;
}

/** Writes the memo in place of the last one (temporary file, then rename); throws on failure. */
export async function writeHubMemoFile(gitdir: string, header: HubMemoHeader, body: Buffer): Promise<void> {
  const path = hubMemoPath(gitdir);
  const dir = join(gitdir, 'gitfleet');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const content = [Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), body, newline];
  const hash = createHash('sha1');
  for (const part of content) hash.update(part);
  const sum = Buffer.from(`${hash.digest('hex')}\n`, 'latin1');
  const temporary = join(dir, `.hub-memo-v${hubMemoVersion}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, Buffer.concat([...content, sum]), { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  // What an older hub wrote (version 1) is of no use to this one, and large.
  await rm(join(dir, 'hub-memo-v1'), { force: true });
}

const newline = Buffer.from('\n', 'latin1');
