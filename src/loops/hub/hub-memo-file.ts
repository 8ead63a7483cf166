// The file that holds the hub's persisted memo (hub-memo.ts): `<gitdir>/gitfleet/hub-memo-v1`,
// outside every branch, so the branches' formats stay as they are. Three lines:
//
//   1. the header, JSON: the format version, the branch prefix, and the refs the hub's pass
//      left (the bindings branch and every cluster branch) when the file was written;
//   2. the body, JSON: the encoded graph (graph-codec.ts);
//   3. the SHA-1 of lines 1 and 2, hex.
//
// It is written whole to a temporary file in the same directory (mode 0600) and renamed over
// the last one, so a reader sees the old file or the new one. A file that does not match (another
// version, refs moved since, truncated, a flipped byte) is reported as ignored, with the reason.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EncodedGraph } from './graph-codec.js';

/** The memo's format version: bump it whenever what hub-memo.ts keeps changes shape. */
export const hubMemoVersion = 1;

export interface HubMemoHeader {
  version: number;
  /** The FleetConfig's branchPrefix of the pass that wrote it. */
  prefix: string;
  /** Full ref name → commit: the bindings branch and every cluster branch under the prefix. */
  refs: Record<string, string>;
}

export type HubMemoRead =
  | { type: 'read'; header: HubMemoHeader; body: EncodedGraph }
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
    if (typeof checked !== 'string') return { type: 'ignored', reason: checked.reason };
    const headerEnd = checked.indexOf('\n');
    const header = JSON.parse(checked.slice(0, headerEnd)) as HubMemoHeader;
    if (header.version !== hubMemoVersion)
      return { type: 'ignored', reason: `format version ${header.version}, not ${hubMemoVersion}` };
    const moved = movedRef(header.refs, await refsNow(header.prefix));
    if (moved) return { type: 'ignored', reason: `written at other refs (${moved})` };
    return { type: 'read', header, body: JSON.parse(checked.slice(headerEnd + 1)) as EncodedGraph };
  } catch (error) {
    return { type: 'ignored', reason: `unreadable: ${(error as Error).message}` };
  }
}

// The header and body lines (without the last newline) when the trailing checksum is theirs,
// else what is wrong, as `{ reason }`.
function checkedContent(data: Buffer): string | { reason: string } {
  const sumStart = data.length - 41;
  if (sumStart < 0 || data[data.length - 1] !== 0x0a || data[sumStart - 1] !== 0x0a)
    return { reason: 'truncated: no checksum line' };
  const sum = data.subarray(sumStart, data.length - 1).toString('latin1');
  const content = data.subarray(0, sumStart);
  if (createHash('sha1').update(content).digest('hex') !== sum)
    return { reason: 'its checksum does not match' };
  const text = content.toString('utf8');
  const headerEnd = text.indexOf('\n');
  if (headerEnd < 0 || text.indexOf('\n', headerEnd + 1) !== text.length - 1)
    return { reason: 'not a header and a body' };
  return text.slice(0, -1);
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
export async function writeHubMemoFile(
  gitdir: string,
  header: HubMemoHeader,
  body: EncodedGraph,
): Promise<void> {
  const path = hubMemoPath(gitdir);
  const dir = join(gitdir, 'gitfleet');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const content = `${JSON.stringify(header)}\n${JSON.stringify(body)}\n`;
  const sum = createHash('sha1').update(content, 'utf8').digest('hex');
  const temporary = join(dir, `.hub-memo-v${hubMemoVersion}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, `${content}${sum}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
