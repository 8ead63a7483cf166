// The charts the renderer pulled from OCI registries, kept by the digest of their manifest
// (docs/sources.md#charts-from-an-oci-registry): in memory, and in the render store when the hub
// keeps one, so a chart is pulled once and rendered offline after, by this process and the next.
// A chart pinned by digest is looked up by it; one pinned by version only is pulled once and its
// version remembered with the digest the registry gave (a chart version is published once; pin a
// digest to have a re-pushed version refused). Each kept chart carries a hash of its bytes: one
// that does not read back whole is pulled again.
import { createHash } from 'node:crypto';
import type { OciChartRef } from '../../core/model/template-source.js';
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

/** Charts pulled from registries, by digest. */
export class OciCharts {
  private readonly charts = new Map<string, Buffer>();
  private readonly versions = new Map<string, string>();
  /** Charts pulled from a registry, counted (each cached chart costs none). */
  pulls = 0;

  constructor(private readonly store: () => RenderStore | undefined) {}

  /** Returns a source's chart, from the cache or pulled by helm, checked against its pinned digest. */
  async get(
    chart: OciChartRef,
    opts: { tool: RenderTool; limits: RenderLimits; used: ChartKeys },
  ): Promise<PulledChart> {
    const versionKey = sha256(`${chart.oci}:${chart.version ?? ''}`);
    const digest = chart.digest ?? (await this.versionDigest(versionKey));
    const kept = digest === undefined ? undefined : await this.kept(digest);
    if (kept !== undefined && digest !== undefined) {
      use(opts.used, 'chart', digest);
      if (chart.digest === undefined) use(opts.used, 'chartversion', versionKey);
      return { ok: true, digest, bytes: kept };
    }
    this.pulls++;
    const pulled = await pullOciChart({ chart, ...opts });
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

  /** Forgets the charts a pass did not use. */
  keepOnly(used: ChartKeys): void {
    for (const digest of this.charts.keys())
      if (!used.get('chart')?.has(hexOf(digest))) this.charts.delete(digest);
    for (const key of this.versions.keys())
      if (!used.get('chartversion')?.has(key)) this.versions.delete(key);
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
