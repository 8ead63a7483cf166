// A chart's name and version, as its Chart.yaml says them (docs/sources.md#provenance): read from
// the repository for a chart directory, from the archive for a packaged chart (a `.tgz` in the
// repository, or pulled from a registry). A Chart.yaml that is missing, not YAML, or without a
// name or version gives what it has: the provenance then says what is missing, never fails.
import yaml from 'js-yaml';
import { isGzip, tarFiles, unpacked } from './scan-chart.js';

/** What a chart's Chart.yaml names. */
export interface ChartMetadata {
  name?: string;
  version?: string;
}

const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;

/** Returns the name and version a Chart.yaml text gives (each absent when it gives none). */
export function parseChartYaml(text: string | undefined): ChartMetadata {
  if (text === undefined) return {};
  let doc: unknown;
  try {
    // Every scalar a string: `version: 1.10` is the version "1.10", not the number 1.1.
    doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
  } catch {
    return {};
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return {};
  const { name, version } = doc as Record<string, unknown>;
  return {
    ...(typeof name === 'string' && name !== '' ? { name } : {}),
    ...(typeof version === 'string' && version !== '' ? { version } : {}),
  };
}

/** Returns the metadata of a packaged chart: its top folder's Chart.yaml (`<chart>/Chart.yaml`). */
export function packagedChartMetadata(bytes: Buffer): ChartMetadata {
  const tar = isGzip(bytes) ? unpacked(bytes, MAX_ARCHIVE_BYTES) : undefined;
  if (tar === undefined) return {};
  const entry = tarFiles(tar).find((f) => /^[^/]+\/Chart\.yaml$/.test(f.name));
  return parseChartYaml(entry?.bytes.toString('utf8'));
}
