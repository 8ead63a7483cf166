// What a chart's templates call, read from the chart as copied for its render (a directory, or a
// packaged .tgz, with its subcharts, packaged ones inside a packaged chart included): whether they
// read `.Capabilities` (then each cluster's Kubernetes version and API versions are inputs of the
// render, docs/sources.md#per-cluster-rendering) and whether they call a function whose value
// changes from run to run (then the chart is rendered twice on first sight of its inputs,
// docs/sources.md#nondeterministic-charts).
import { gunzipSync } from 'node:zlib';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a chart's files say about its render. */
export interface ChartTraits {
  readsCapabilities: boolean;
  /** The run-to-run functions its templates call (`randAlphaNum`, `uuidv4`, `now`…), sorted. */
  nondeterministic: string[];
}

const CAPABILITIES = /\.Capabilities\b/;
// Inside a template action: sprig's random, time and key-generating functions.
const UNSTABLE =
  /\{\{[^}]*?\b(randAlphaNum|randAlpha|randNumeric|randAscii|randBytes|randInt|uuidv4|now|unixEpoch|genCA|genCAWithKey|genPrivateKey|genSelfSignedCert|genSelfSignedCertWithKey|genSignedCert|genSignedCertWithKey|htpasswd|bcrypt)\b/g;
const MAX_SCANNED_BYTES = 64 * 1024 * 1024;

/** Returns the traits of the chart at a path (a directory or a .tgz); a path that holds nothing has none. */
export async function scanChart(path: string): Promise<ChartTraits> {
  const traits: ChartTraits = { readsCapabilities: false, nondeterministic: [] };
  const found = new Set<string>();
  let budget = MAX_SCANNED_BYTES;
  const scan = (text: string) => {
    if (CAPABILITIES.test(text)) traits.readsCapabilities = true;
    for (const m of text.matchAll(UNSTABLE)) found.add(m[1]!);
  };
  const visit = async (at: string): Promise<void> => {
    const stat = await lstat(at).catch(() => undefined);
    if (stat === undefined || budget <= 0) return;
    if (stat.isDirectory()) {
      for (const name of (await readdir(at)).sort()) await visit(join(at, name));
      return;
    }
    if (!stat.isFile()) return;
    budget -= stat.size;
    scanBytes(await readFile(at), 0);
  };
  // A packaged chart (or subchart) is a gzipped tar: each of its files is scanned, and a packaged
  // subchart inside it (charts/*.tgz in a .tgz) is opened the same way, a few levels deep.
  const scanBytes = (bytes: Buffer, depth: number): void => {
    if (!isGzip(bytes) || depth > MAX_NESTING) return scan(bytes.toString('latin1'));
    const tar = unpacked(bytes, budget);
    if (tar === undefined) return scan(bytes.toString('latin1'));
    budget -= tar.length;
    if (!isTar(tar)) return scan(tar.toString('latin1'));
    for (const file of tarFiles(tar)) scanBytes(file.bytes, depth + 1);
  };
  await visit(path);
  traits.nondeterministic = [...found].sort();
  return traits;
}

const MAX_NESTING = 4;

/** Returns whether bytes are gzipped (a packaged chart). */
export function isGzip(bytes: Buffer): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function isTar(bytes: Buffer): boolean {
  return bytes.length >= 512 && bytes.subarray(257, 262).toString('latin1') === 'ustar';
}

/** Returns gzipped bytes unpacked, at most `budget` of them, or undefined when they do not unpack. */
export function unpacked(bytes: Buffer, budget: number): Buffer | undefined {
  try {
    return gunzipSync(bytes, { maxOutputLength: Math.max(1, Math.min(budget, MAX_SCANNED_BYTES)) });
  } catch {
    return undefined;
  }
}

/**
 * Returns the regular files of a tar archive (ustar, as helm packages charts): a 512-byte header
 * whose size field is octal (or base-256 when its first byte has the high bit), the content padded
 * to 512 bytes; other entries (directories, pax and long-name headers) are skipped. A name is the
 * header's prefix and name fields joined.
 */
export function tarFiles(tar: Buffer): { name: string; bytes: Buffer }[] {
  const files: { name: string; bytes: Buffer }[] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = tarSize(header.subarray(124, 136));
    if (size === undefined) break;
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === '0' || type === '\0')
      files.push({ name: tarName(header), bytes: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

function tarName(header: Buffer): string {
  const field = (from: number, to: number) =>
    header.subarray(from, to).toString('utf8').replace(/\0.*$/s, '');
  const prefix = field(345, 500);
  return prefix === '' ? field(0, 100) : `${prefix}/${field(0, 100)}`;
}

function tarSize(field: Buffer): number | undefined {
  if ((field[0]! & 0x80) !== 0) return field.subarray(1).reduce((n, b) => n * 256 + b, 0);
  const size = parseInt(field.toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
  return Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}
