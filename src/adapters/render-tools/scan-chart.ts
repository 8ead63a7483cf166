// What a chart's templates call, read from the chart as copied for its render (a directory, or a
// packaged .tgz with its subcharts): whether they read `.Capabilities` (then each cluster's
// Kubernetes version and API versions are inputs of the render, docs/sources.md#per-cluster-rendering)
// and whether they call a function whose value changes from run to run (then the chart is
// rendered twice on first sight of its inputs, docs/sources.md#nondeterministic-charts).
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
    const bytes = await readFile(at);
    // A packaged chart (or subchart) is a gzipped tar: its files' text is in the tar's bytes.
    const text = at.endsWith('.tgz') ? unpacked(bytes) : bytes.toString('latin1');
    scan(text);
  };
  await visit(path);
  traits.nondeterministic = [...found].sort();
  return traits;
}

function unpacked(bytes: Buffer): string {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_SCANNED_BYTES }).toString('latin1');
  } catch {
    return bytes.toString('latin1');
  }
}
