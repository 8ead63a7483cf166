// git's commit-graph (gitformat-commit-graph(5)), read: for each commit it holds, the root tree,
// the first parent and the committer time without inflating the commit, and, when it was written
// with changed-path filters (`git commit-graph write --changed-paths`, or git's maintenance
// with commitGraph.changedPaths), a Bloom filter of the paths the commit changed against its
// first parent (changed-path-filter.ts). `git gc` keeps one up to date; gitfleet never writes it.
//
//   objects/info/commit-graph                          one file, or
//   objects/info/commit-graphs/commit-graph-chain      a chain: one graph-<hash>.graph a line, base first
//
// A file: `CGPH`, version 1, hash version, chunk count, base count; a table of (id, offset)
// chunks; OIDF (fanout), OIDL (ids, sorted), CDAT (tree, parent positions, generation and time),
// and optionally BIDX/BDAT (filters). Positions count across the chain, bases first. Only SHA-1
// graphs are read; anything that does not fit the format makes the graph absent (the caller
// reads the commits instead), never a wrong answer.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filterExcludes, type FilterSettings } from './changed-path-filter.js';

/** A commit as the graph holds it. */
export interface GraphCommit {
  tree: string;
  parent: string | undefined;
  /** Committer time, seconds since the epoch. */
  time: number;
}

const idBytes = 20;
const noParent = 0x70000000;

/** One graph file's chunks. */
interface GraphFile {
  bytes: Buffer;
  /** Global position of its first commit. */
  first: number;
  count: number;
  fanout: number;
  ids: number;
  data: number;
  filters?: { index: number; data: number; settings: FilterSettings };
}

/** The commit-graph of a repository: its files, base first. */
export class CommitGraph {
  private constructor(private readonly files: readonly GraphFile[]) {}

  /** Returns the repository's commit-graph, or undefined when it has none (or none this reader takes). */
  static open(gitdir: string): CommitGraph | undefined {
    try {
      const paths = graphPaths(gitdir);
      if (paths.length === 0) return undefined;
      const files: GraphFile[] = [];
      let first = 0;
      for (const path of paths) {
        const file = parseGraph(readFileSync(path), first);
        if (file === undefined) return undefined;
        files.push(file);
        first += file.count;
      }
      return new CommitGraph(files);
    } catch {
      return undefined;
    }
  }

  /** Returns the commit's tree, first parent and time, or undefined when the graph does not hold it. */
  commit(oid: string): GraphCommit | undefined {
    const at = this.find(oid);
    if (at === undefined) return undefined;
    const { file, index } = at;
    const row = file.data + index * (idBytes + 16);
    const tree = file.bytes.toString('hex', row, row + idBytes);
    const parent1 = file.bytes.readUInt32BE(row + idBytes);
    const high = file.bytes.readUInt32BE(row + idBytes + 8) & 3;
    const time = high * 2 ** 32 + file.bytes.readUInt32BE(row + idBytes + 12);
    const parent = parent1 === noParent ? undefined : this.idAt(parent1);
    if (parent1 !== noParent && parent === undefined) return undefined;
    return { tree, parent, time };
  }

  /**
   * Returns true when the commit's changed-path filter says `path` (a file or a directory, no
   * trailing slash) did not change from its first parent; false when it may have, or when the
   * graph has no filter for the commit.
   */
  unchanged(oid: string, path: string): boolean {
    const at = this.find(oid);
    const filters = at?.file.filters;
    if (at === undefined || filters === undefined) return false;
    const { bytes } = at.file;
    const end = bytes.readUInt32BE(filters.index + 4 * at.index);
    const start = at.index === 0 ? 0 : bytes.readUInt32BE(filters.index + 4 * (at.index - 1));
    if (end < start || filters.data + end > bytes.length) return false;
    return filterExcludes(bytes.subarray(filters.data + start, filters.data + end), path, filters.settings);
  }

  private find(oid: string): { file: GraphFile; index: number } | undefined {
    if (!/^[0-9a-f]{40}$/.test(oid)) return undefined;
    const id = Buffer.from(oid, 'hex');
    for (const file of this.files) {
      const index = search(file, id);
      if (index !== undefined) return { file, index };
    }
    return undefined;
  }

  private idAt(position: number): string | undefined {
    for (const file of this.files) {
      if (position < file.first || position >= file.first + file.count) continue;
      const at = file.ids + (position - file.first) * idBytes;
      return file.bytes.toString('hex', at, at + idBytes);
    }
    return undefined;
  }
}

function graphPaths(gitdir: string): string[] {
  const info = join(gitdir, 'objects', 'info');
  const chain = join(info, 'commit-graphs', 'commit-graph-chain');
  if (existsSync(chain)) {
    const hashes = readFileSync(chain, 'utf8')
      .split('\n')
      .filter((l) => /^[0-9a-f]{40}$/.test(l));
    return hashes.map((h) => join(info, 'commit-graphs', `graph-${h}.graph`));
  }
  const single = join(info, 'commit-graph');
  return existsSync(single) ? [single] : [];
}

const chunkIds = { OIDF: 0x4f494446, OIDL: 0x4f49444c, CDAT: 0x43444154, BIDX: 0x42494458, BDAT: 0x42444154 };

/** Returns a graph file's chunks, or undefined when it is not a SHA-1 graph of version 1 that fits its size. */
function parseGraph(bytes: Buffer, first: number): GraphFile | undefined {
  if (bytes.length < 8 + 12 || bytes.toString('latin1', 0, 4) !== 'CGPH') return undefined;
  if (bytes[4] !== 1 || bytes[5] !== 1) return undefined;
  const chunks = new Map<number, number>();
  for (let i = 0; i < bytes[6]!; i++) {
    const at = 8 + 12 * i;
    if (at + 12 > bytes.length) return undefined;
    const offset = Number(bytes.readBigUInt64BE(at + 4));
    if (offset > bytes.length) return undefined;
    chunks.set(bytes.readUInt32BE(at), offset);
  }
  const fanout = chunks.get(chunkIds.OIDF);
  const ids = chunks.get(chunkIds.OIDL);
  const data = chunks.get(chunkIds.CDAT);
  if (fanout === undefined || ids === undefined || data === undefined || fanout + 1024 > bytes.length)
    return undefined;
  const count = bytes.readUInt32BE(fanout + 255 * 4);
  if (ids + count * idBytes > bytes.length || data + count * (idBytes + 16) > bytes.length) return undefined;
  const file: GraphFile = { bytes, first, count, fanout, ids, data };
  const index = chunks.get(chunkIds.BIDX);
  const filterData = chunks.get(chunkIds.BDAT);
  if (index !== undefined && filterData !== undefined && filterData + 12 <= bytes.length) {
    const settings: FilterSettings = {
      version: bytes.readUInt32BE(filterData),
      hashes: bytes.readUInt32BE(filterData + 4),
      bitsPerEntry: bytes.readUInt32BE(filterData + 8),
    };
    if (index + 4 * count <= bytes.length && (settings.version === 1 || settings.version === 2))
      file.filters = { index, data: filterData + 12, settings };
  }
  return file;
}

/** Returns the index of `id` in the file's sorted ids, or undefined. */
function search(file: GraphFile, id: Buffer): number | undefined {
  const { bytes } = file;
  const byte = id[0]!;
  let lo = byte === 0 ? 0 : bytes.readUInt32BE(file.fanout + 4 * (byte - 1));
  let hi = bytes.readUInt32BE(file.fanout + 4 * byte);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = file.ids + mid * idBytes;
    const order = id.compare(bytes, at, at + idBytes);
    if (order === 0) return mid;
    if (order < 0) hi = mid;
    else lo = mid + 1;
  }
  return undefined;
}
