// Reads a HelmSource or KustomizeSource document (gitfleet.io/v1alpha1) into its model, or every
// issue with it (docs/sources.md). Paths are relative to the repository root and stay inside it:
// no leading '/', no '..' segment, no empty segment.
import type { SourceLocation } from '../model/source-location.js';
import type { ChartRef, ClusterValues, TemplateSource } from '../model/template-source.js';
import type { KubeObject } from '../model/kube-object.js';
import {
  childPath,
  compact,
  readList,
  readMap,
  readRequiredString,
  readStringList,
  type Issues,
} from './field-reader.js';
import { parseLabelSelector } from './parse-selectors.js';
import { checkDns1123Label } from './name-rules.js';

/** Returns why a repository path is not one a source may name, or undefined when it is. */
export function checkRepositoryPath(path: string): string | undefined {
  if (path.startsWith('/')) return 'must be relative to the repository root, not absolute';
  const segments = path.replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '..')) return 'must stay inside the repository (no ".." segment)';
  if (segments.some((s) => s === '' || s === '.')) return 'must be a plain path (no empty or "." segment)';
  if (segments.some((s) => s.startsWith('.'))) return 'must not name a hidden file or directory';
  return undefined;
}

function readPath(value: unknown, path: string, issues: Issues): string | undefined {
  const read = readRequiredString(value, path, issues);
  if (read === undefined) return undefined;
  const problem = checkRepositoryPath(read);
  if (problem !== undefined) issues.push({ path, message: `${JSON.stringify(read)}: ${problem}` });
  return problem === undefined ? read.replace(/\/+$/, '') : undefined;
}

function readClusterValues(value: unknown, path: string, issues: Issues): ClusterValues | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const clusterNames = readStringList(map['clusterNames'], childPath(path, 'clusterNames'), issues);
  const clusterSelector = parseLabelSelector(
    map['clusterSelector'],
    childPath(path, 'clusterSelector'),
    issues,
  );
  if (clusterNames === undefined && clusterSelector === undefined)
    issues.push({ path, message: 'names its clusters by clusterNames or clusterSelector' });
  const values = readMap(map['values'], childPath(path, 'values'), issues) ?? {};
  return compact<ClusterValues>({ clusterNames, clusterSelector, values });
}

// oci://host[:port]/path/name: lowercase repository path segments, no tag or digest (they are
// spec.chart.version and spec.chart.digest).
const OCI_REF = /^oci:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?(\/[a-z0-9]+([._-][a-z0-9]+)*)+$/;
const CHART_VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

function readMatching(value: unknown, path: string, pattern: RegExp, want: string, issues: Issues) {
  if (value === undefined) return undefined;
  const read = readRequiredString(value, path, issues);
  if (read !== undefined && !pattern.test(read))
    issues.push({ path, message: `${JSON.stringify(read)}: must be ${want}` });
  return read !== undefined && pattern.test(read) ? read : undefined;
}

// The keys that name where a chart is: exactly one of them.
const CHART_KINDS = ['path', 'oci', 'repoURL'] as const;

// A chart in the repository (path), in an OCI registry (oci, pinned by version and/or digest) or
// in a classic chart repository (repoURL, name and an exact version, optionally a digest).
function readChartRef(value: unknown, issues: Issues): ChartRef | undefined {
  const chart = readMap(value, 'spec.chart', issues);
  if (chart === undefined) return undefined;
  const kinds = CHART_KINDS.filter((key) => key in chart);
  if (kinds.length > 1)
    issues.push({
      path: 'spec.chart',
      message: `names its chart by one of path, oci or repoURL, not ${kinds.join(' and ')}`,
    });
  if (kinds.includes('repoURL')) return readRepoChart(chart, issues);
  if (kinds.includes('oci')) return readOciChart(chart, issues);
  for (const key of ['version', 'digest', 'name'])
    if (key in chart)
      issues.push({
        path: `spec.chart.${key}`,
        message: 'pins a chart of a registry (oci) or chart repository (repoURL)',
      });
  const path = readPath(chart['path'], 'spec.chart.path', issues);
  return path === undefined ? undefined : { path };
}

function readDigest(chart: Record<string, unknown>, issues: Issues): string | undefined {
  return readMatching(
    chart['digest'],
    'spec.chart.digest',
    DIGEST,
    'sha256:<64 lowercase hex digits>',
    issues,
  );
}

function readOciChart(chart: Record<string, unknown>, issues: Issues): ChartRef | undefined {
  if ('name' in chart)
    issues.push({ path: 'spec.chart.name', message: 'is the last segment of spec.chart.oci' });
  const oci = readMatching(
    chart['oci'],
    'spec.chart.oci',
    OCI_REF,
    'oci://<host>[:<port>]/<path>/<chart>, without a tag or digest',
    issues,
  );
  const version = readMatching(
    chart['version'],
    'spec.chart.version',
    CHART_VERSION,
    'a chart version',
    issues,
  );
  const digest = readDigest(chart, issues);
  if (chart['version'] === undefined && chart['digest'] === undefined)
    issues.push({ path: 'spec.chart', message: 'pins its OCI chart by version, digest or both' });
  return oci === undefined ? undefined : compact<ChartRef>({ oci, version, digest });
}

// A chart repository is read over HTTPS, or plain HTTP on a loopback address only (as registries
// are); credentials come from the hub's --chart-credentials file, never from the fleet repository.
const REPO_URL =
  /^(https:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?|http:\/\/(127\.[0-9.]+|localhost|\[::1\])(:[0-9]{1,5})?)(\/[^\s?#@]*)?$/;
// Helm requires SemVer 2 chart versions; an exact one, never a range (`^1.2`, `~1.2`, `1.x`, `>=1`).
const EXACT_VERSION =
  /^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const CHART_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,249}$/;

function readRepoChart(chart: Record<string, unknown>, issues: Issues): ChartRef | undefined {
  const repoURL = readMatching(
    chart['repoURL'],
    'spec.chart.repoURL',
    REPO_URL,
    'https://<host>[:<port>]/<path> (http:// on a loopback address only), without credentials, query or fragment',
    issues,
  );
  const name = readMatching(chart['name'], 'spec.chart.name', CHART_NAME, "a chart's name", issues);
  if (chart['name'] === undefined)
    issues.push({ path: 'spec.chart.name', message: 'is required with repoURL' });
  const version = readMatching(
    chart['version'],
    'spec.chart.version',
    EXACT_VERSION,
    'an exact chart version (1.4.2): a chart of a repository is pinned, never a range',
    issues,
  );
  if (chart['version'] === undefined)
    issues.push({
      path: 'spec.chart.version',
      message: 'pins the chart: an exact version is required with repoURL',
    });
  const digest = readDigest(chart, issues);
  if (repoURL === undefined || name === undefined || version === undefined) return undefined;
  return compact<ChartRef>({ repoURL: repoURL.replace(/\/+$/, ''), name, version, digest });
}

/** Returns the source a document holds, or the issues that keep it out. */
export function parseTemplateSource(doc: {
  object: KubeObject;
  kind: 'HelmSource' | 'KustomizeSource';
  name: string;
  namespace: string;
  source: SourceLocation;
}): { ok: true; source: TemplateSource } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues) ?? {};
  if (doc.kind === 'KustomizeSource') {
    const path = readPath(spec['path'], 'spec.path', issues);
    if (path === undefined || issues.length > 0) return { ok: false, issues };
    return { ok: true, source: { kind: 'KustomizeSource', name: doc.name, source: doc.source, path } };
  }
  const chart = readChartRef(spec['chart'], issues);
  const releaseName = readRequiredString(spec['releaseName'], 'spec.releaseName', issues);
  const nameProblem = releaseName === undefined ? undefined : checkDns1123Label(releaseName, 53);
  if (nameProblem !== undefined) issues.push({ path: 'spec.releaseName', message: nameProblem });
  const namespace = readRequiredString(
    spec['namespace'] ?? (doc.namespace || undefined),
    'spec.namespace',
    issues,
  );
  const values = readMap(spec['values'], 'spec.values', issues) ?? {};
  const valuesFiles =
    readList(spec['valuesFiles'], 'spec.valuesFiles', issues, (v, p) => readPath(v, p, issues)) ?? [];
  const clusterValues =
    readList(spec['clusterValues'], 'spec.clusterValues', issues, (v, p) =>
      readClusterValues(v, p, issues),
    ) ?? [];
  if (chart === undefined || releaseName === undefined || namespace === undefined || issues.length > 0)
    return { ok: false, issues };
  const source = {
    kind: 'HelmSource',
    name: doc.name,
    source: doc.source,
    chart,
  } as const;
  return { ok: true, source: { ...source, releaseName, namespace, values, valuesFiles, clusterValues } };
}
