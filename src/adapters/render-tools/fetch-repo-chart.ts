// Fetches a chart from a classic chart repository (docs/sources.md#charts-from-a-chart-repository)
// with our own HTTP client (get-bounded.ts), not `helm pull --repo`: helm takes a password only in
// its argv or a repositories file, bounds neither the index nor the time, and follows redirects to
// any host; here the index and the chart are bounded, timed out at the render deadline, the
// credentials stay in memory and go only where their key says, and the digest is checked by us.
// The index is read once per pass and repository (`indexes`); the chart is the `.tgz` its entry
// names, whose sha256 must be the index's `digest` and the pinned `spec.chart.digest`, if any.
import { createHash } from 'node:crypto';
import type { RepoChartRef } from '../../core/model/template-source.js';
import type { CredentialEntries } from './chart-credentials.js';
import { findChartVersion, parseChartIndex, type ChartIndex } from './chart-index.js';
import { getBounded } from './get-bounded.js';
import type { PulledChart } from './pull-oci-chart.js';

/** A repository's index, read, or why it could not be. */
export type IndexRead = { ok: true; index: ChartIndex } | { ok: false; message: string };

/** The indexes of the repositories a pass read, by repository URL: each is read once per pass. */
export type IndexReads = Map<string, Promise<IndexRead>>;

/** Bytes read at most: an index (a large public one is a few tens of MiB), a packaged chart. */
export const MAX_INDEX_BYTES = 32 * 1024 * 1024;
export const MAX_CHART_BYTES = 32 * 1024 * 1024;

/** Returns the chart the repository serves for the pin, checked against its digests, or why not. */
export async function fetchRepoChart(opts: {
  chart: RepoChartRef;
  timeoutMs: number;
  credentials: CredentialEntries | undefined;
  indexes: IndexReads;
}): Promise<PulledChart> {
  const { chart } = opts;
  const deadline = { signal: AbortSignal.timeout(opts.timeoutMs), timeoutMs: opts.timeoutMs };
  const read = await indexOf(chart.repoURL, { ...opts, deadline });
  if (!read.ok) return read;
  const found = findChartVersion(read.index, chart.name, chart.version);
  if (!found.ok) return { ok: false, message: `index.yaml ${found.message}` };
  const { entry } = found;
  if (entry.digest === undefined && chart.digest === undefined)
    return {
      ok: false,
      message: `index.yaml gives no digest for ${chart.name} ${chart.version}: pin spec.chart.digest (sha256 of the .tgz) to read it`,
    };
  if (entry.digest !== undefined && chart.digest !== undefined && entry.digest !== chart.digest)
    return {
      ok: false,
      message: `index.yaml gives ${entry.digest} for ${chart.name} ${chart.version}, not the pinned ${chart.digest}: nothing is rendered from it`,
    };
  const url = new URL(entry.urls[0]!, `${chart.repoURL}/`).toString();
  const file = url.split('/').pop() || `${chart.name}-${chart.version}.tgz`;
  const got = await getBounded({
    url,
    what: file,
    maxBytes: MAX_CHART_BYTES,
    deadline,
    credentials: opts.credentials,
  });
  if (!got.ok) return got;
  const digest = `sha256:${createHash('sha256').update(got.body).digest('hex')}`;
  const want = chart.digest ?? entry.digest!;
  if (digest !== want)
    return {
      ok: false,
      message: `${file} from ${got.url} has ${digest}, not the ${chart.digest !== undefined ? 'pinned' : "index's"} ${want}: nothing is rendered from it`,
    };
  return { ok: true, digest, bytes: got.body };
}

function indexOf(
  repoURL: string,
  opts: {
    credentials: CredentialEntries | undefined;
    indexes: IndexReads;
    deadline: { signal: AbortSignal; timeoutMs: number };
  },
): Promise<IndexRead> {
  let read = opts.indexes.get(repoURL);
  if (read === undefined) {
    read = (async () => {
      const got = await getBounded({
        url: `${repoURL}/index.yaml`,
        what: 'index.yaml',
        maxBytes: MAX_INDEX_BYTES,
        deadline: opts.deadline,
        credentials: opts.credentials,
      });
      if (!got.ok) return got;
      const parsed = parseChartIndex(got.body);
      return parsed.ok
        ? parsed
        : { ok: false as const, message: `index.yaml from ${got.url} ${parsed.message}` };
    })();
    opts.indexes.set(repoURL, read);
  }
  return read;
}
