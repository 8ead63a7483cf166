// A template source: a document of the fleet repo whose output, rendered by Helm or Kustomize,
// becomes resource templates exactly as if it had been committed as YAML (docs/sources.md).
import type { LabelSelector } from './selectors.js';
import type { SourceLocation } from './source-location.js';

/** A Helm chart in the repository, rendered with `helm template`. */
export interface HelmSource {
  readonly kind: 'HelmSource';
  readonly name: string;
  readonly source: SourceLocation;
  /** The chart: in the repository, in an OCI registry, or in a classic chart repository. */
  readonly chart: ChartRef;
  readonly releaseName: string;
  /** The release namespace: namespaced objects the chart leaves without one go there. */
  readonly namespace: string;
  /** Inline values, applied after the values files. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Values files relative to the repository root, applied in order after the chart's values.yaml. */
  readonly valuesFiles: readonly string[];
  /** Values for some clusters, applied after `values` in order (later entries win). */
  readonly clusterValues: readonly ClusterValues[];
}

/**
 * Where a chart is: a directory or a packaged `.tgz` relative to the repository root, a chart
 * in an OCI registry (`oci://host/path/name`) pinned by version, digest (`sha256:…`) or both, or
 * a chart of a classic chart repository (an `index.yaml` over HTTP) pinned by its exact version
 * and, optionally, the digest of its `.tgz`.
 */
export type ChartRef =
  | { readonly path: string }
  | { readonly oci: string; readonly version?: string; readonly digest?: string }
  | { readonly repoURL: string; readonly name: string; readonly version: string; readonly digest?: string };

/** A chart in an OCI registry. */
export type OciChartRef = Extract<ChartRef, { oci: string }>;

/** A chart in a classic chart repository. */
export type RepoChartRef = Extract<ChartRef, { repoURL: string }>;

/** A chart fetched from outside the fleet repository: a registry's or a chart repository's. */
export type RemoteChartRef = OciChartRef | RepoChartRef;

/**
 * Returns the chart as a person reads it: its path, its registry reference with version and
 * digest, or its name and version in its chart repository (`web 1.4.2 from https://…`).
 */
export function describeChart(chart: ChartRef): string {
  if ('path' in chart) return chart.path;
  if ('repoURL' in chart) return `${chart.name} ${chart.version} from ${chart.repoURL}`;
  return `${chart.oci}${chart.version !== undefined ? `:${chart.version}` : ''}${chart.digest !== undefined ? `@${chart.digest}` : ''}`;
}

/** Values given to the clusters one entry selects by name or by labels. */
export interface ClusterValues {
  readonly clusterNames?: readonly string[];
  readonly clusterSelector?: LabelSelector;
  readonly values: Readonly<Record<string, unknown>>;
}

/** A kustomization directory in the repository, built with `kustomize build`. */
export interface KustomizeSource {
  readonly kind: 'KustomizeSource';
  readonly name: string;
  readonly source: SourceLocation;
  /** The kustomization directory, relative to the repository root. */
  readonly path: string;
}

/** Either kind of template source. */
export type TemplateSource = HelmSource | KustomizeSource;

/** The kinds of template source (gitfleet.io/v1alpha1). */
export const TEMPLATE_SOURCE_KINDS = ['HelmSource', 'KustomizeSource'] as const;

/** Returns the directories and files a source reads from the repository (its chart, values files, kustomization). */
export function sourceInputPaths(source: TemplateSource): string[] {
  if (source.kind === 'KustomizeSource') return [source.path];
  return 'path' in source.chart ? [source.chart.path, ...source.valuesFiles] : [...source.valuesFiles];
}

/** Returns whether a repository path is a source's input or lies under one. */
export function isUnderPath(path: string, root: string): boolean {
  return root === '' || path === root || path.startsWith(`${root}/`);
}
