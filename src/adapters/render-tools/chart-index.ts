// A classic chart repository's index (`index.yaml`, as `helm repo index` writes it): read as
// YAML (core schema: timestamps stay text), and one chart version found in it by its exact
// version string. The entry gives the packaged chart's URLs (relative to the repository, or
// absolute) and the sha256 of the `.tgz` (`digest`).
import yaml from 'js-yaml';

/** One chart version of an index: where its `.tgz` is and its sha256, as `sha256:<hex>`. */
export interface IndexEntry {
  urls: string[];
  digest: string | undefined;
}

/** A read index: the chart versions it lists, by chart name. */
export type ChartIndex = ReadonlyMap<string, readonly { version: string; entry: IndexEntry }[]>;

/** Returns the index a body holds, or why it is not one (never quoting the body). */
export function parseChartIndex(
  body: Buffer,
): { ok: true; index: ChartIndex } | { ok: false; message: string } {
  let doc: unknown;
  try {
    doc = yaml.load(body.toString('utf8'), { schema: yaml.CORE_SCHEMA });
  } catch (error) {
    const line = (error as { mark?: { line?: number } }).mark?.line;
    return { ok: false, message: `is not YAML${line !== undefined ? ` (line ${line + 1})` : ''}` };
  }
  const entries = (doc as { entries?: unknown } | null)?.entries;
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries))
    return { ok: false, message: 'is not a chart repository index (no entries map)' };
  const index = new Map<string, { version: string; entry: IndexEntry }[]>();
  for (const [name, versions] of Object.entries(entries)) {
    if (!Array.isArray(versions)) continue;
    index.set(name, versions.flatMap(readVersion));
  }
  return { ok: true, index };
}

function readVersion(value: unknown): { version: string; entry: IndexEntry }[] {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const version = v['version'];
  const urls = Array.isArray(v['urls']) ? v['urls'].filter((u): u is string => typeof u === 'string') : [];
  if (typeof version !== 'string' && typeof version !== 'number') return [];
  const digest = typeof v['digest'] === 'string' ? v['digest'].replace(/^sha256:/, '') : undefined;
  return [
    {
      version: String(version),
      entry: {
        urls,
        digest: digest !== undefined && /^[0-9a-f]{64}$/.test(digest) ? `sha256:${digest}` : undefined,
      },
    },
  ];
}

/** Returns a chart version's entry, or words saying it is not listed (and what is, up to a few versions). */
export function findChartVersion(
  index: ChartIndex,
  name: string,
  version: string,
): { ok: true; entry: IndexEntry } | { ok: false; message: string } {
  const versions = index.get(name);
  if (versions === undefined || versions.length === 0)
    return { ok: false, message: `lists no chart ${name}` };
  const found = versions.find((v) => v.version === version);
  if (found !== undefined && found.entry.urls.length > 0) return { ok: true, entry: found.entry };
  if (found !== undefined) return { ok: false, message: `gives no URL for ${name} ${version}` };
  const listed = versions.slice(0, 5).map((v) => v.version);
  const more = versions.length > listed.length ? `, and ${versions.length - listed.length} more` : '';
  return {
    ok: false,
    message: `lists no version ${version} of ${name} (it lists ${listed.join(', ')}${more})`,
  };
}
