// The charts the renderer pulled from OCI registries and chart repositories, kept by their digest
// (the manifest's for a registry, the `.tgz`'s for a chart repository; docs/sources.md#charts-from-an-oci-registry,
// #charts-from-a-chart-repository): in memory, and in the render store when the hub keeps one, so
// a chart is pulled once and rendered offline after, by this process and the next. A chart pinned
// by digest is looked up by it; one pinned by version only is pulled once and its version
// remembered with the digest it came with (a chart version is published once; pin a digest to
// have a re-published version refused). Each kept chart carries a hash of its bytes: one that
// does not read back whole is pulled again.
import { createHash } from 'node:crypto';
import type { RemoteChartRef } from '../../core/model/template-source.js';
import type { CredentialEntries } from './chart-credentials.js';
import { fetchRepoChart, type IndexReads } from './fetch-repo-chart.js';
import type { RenderTool } from './find-render-tool.js';
import { pullOciChart, type PulledChart } from './pull-oci-chart.js';
import type { RenderLimits } from './render-source.js';
import type { RenderStore } from './render-store.js';

interface KeptChart {
  digest: string;
  sha256: string;
  tgz: string;
}

/** The store's keys a pass used for its charts, by kind (`chart`, `chartversion`). */
export type ChartKeys = Map<'chart' | 'chartversion', Set<string>>;

/** Charts pulled from registries and chart repositories, by digest. */
export class PulledCharts {
  private readonly charts = new Map<string, Buffer>();
  private readonly versions = new Map<string, string>();
  private indexes: IndexReads = new Map();
  /** Charts pulled from a registry or a chart repository, counted (each cached chart costs none). */
  pulls = 0;

  constructor(
    private readonly store: () => RenderStore | undefined,
    /** The --chart-credentials file's entries, read again at each pull; absent: anonymous pulls. */
    private readonly credentials?: () => Promise<CredentialEntries>,
  ) {}

  /** Returns a source's chart, from the cache or pulled, checked against its pinned digest. */
  async get(
    chart: RemoteChartRef,
    opts: { tool: RenderTool; limits: RenderLimits; used: ChartKeys },
  ): Promise<PulledChart> {
    const versionKey = sha256(
      'oci' in chart
        ? `${chart.oci}:${chart.version ?? ''}`
        : `${chart.repoURL}\n${chart.name}\n${chart.version}`,
    );
    const digest = chart.digest ?? (await this.versionDigest(versionKey));
    const kept = digest === undefined ? undefined : await this.kept(digest);
    if (kept !== undefined && digest !== undefined) {
      use(opts.used, 'chart', digest);
      if (chart.digest === undefined) use(opts.used, 'chartversion', versionKey);
      return { ok: true, digest, bytes: kept };
    }
    this.pulls++;
    const pulled = await this.pull(chart, opts);
    if (!pulled.ok) return pulled;
    this.charts.set(pulled.digest, pulled.bytes);
    const value: KeptChart = {
      digest: pulled.digest,
      sha256: sha256(pulled.bytes),
      tgz: pulled.bytes.toString('base64'),
    };
    await this.store()?.put('chart', hexOf(pulled.digest), value);
    use(opts.used, 'chart', pulled.digest);
    if (chart.digest === undefined) {
      this.versions.set(versionKey, pulled.digest);
      await this.store()?.put('chartversion', versionKey, { digest: pulled.digest });
      use(opts.used, 'chartversion', versionKey);
    }
    return pulled;
  }

  /** Forgets the charts a pass did not use, and the indexes it read (the next pass reads them again, if it needs to). */
  keepOnly(used: ChartKeys): void {
    this.indexes = new Map();
    for (const digest of this.charts.keys())
      if (!used.get('chart')?.has(hexOf(digest))) this.charts.delete(digest);
    for (const key of this.versions.keys())
      if (!used.get('chartversion')?.has(key)) this.versions.delete(key);
  }

  private async pull(
    chart: RemoteChartRef,
    opts: { tool: RenderTool; limits: RenderLimits },
  ): Promise<PulledChart> {
    let credentials: CredentialEntries | undefined;
    try {
      credentials = await this.credentials?.();
    } catch (error) {
      return { ok: false, message: `--chart-credentials ${(error as Error).message}` };
    }
    if ('oci' in chart) return pullOciChart({ chart, ...opts, credentials });
    return fetchRepoChart({ chart, timeoutMs: opts.limits.timeoutMs, credentials, indexes: this.indexes });
  }

  private async versionDigest(key: string): Promise<string | undefined> {
    const known = this.versions.get(key);
    if (known !== undefined) return known;
    const read = await this.store()?.get('chartversion', key, isVersionDigest);
    if (read !== undefined) this.versions.set(key, read.digest);
    return read?.digest;
  }

  private async kept(digest: string): Promise<Buffer | undefined> {
    const known = this.charts.get(digest);
    if (known !== undefined) return known;
    const read = await this.store()?.get('chart', hexOf(digest), isKeptChart);
    if (read === undefined || read.digest !== digest) return undefined;
    const bytes = Buffer.from(read.tgz, 'base64');
    if (sha256(bytes) !== read.sha256) return undefined;
    this.charts.set(digest, bytes);
    return bytes;
  }
}

function use(used: ChartKeys, kind: 'chart' | 'chartversion', key: string): void {
  let keys = used.get(kind);
  if (keys === undefined) used.set(kind, (keys = new Set()));
  keys.add(kind === 'chart' ? hexOf(key) : key);
}

function hexOf(digest: string): string {
  return digest.replace(/^sha256:/, '');
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function isVersionDigest(value: unknown): value is { digest: string } {
  return typeof (value as { digest?: unknown } | null)?.digest === 'string';
}

function isKeptChart(value: unknown): value is KeptChart {
  const v = value as Partial<KeptChart> | null;
  return typeof v?.digest === 'string' && typeof v.sha256 === 'string' && typeof v.tgz === 'string';
}
