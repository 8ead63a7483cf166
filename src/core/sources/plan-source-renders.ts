// Which renders a template source needs (docs/sources.md#per-cluster-rendering): one per
// distinct set of per-cluster inputs, never one per cluster. A HelmSource's per-cluster inputs
// are the `clusterValues` entries that pick the cluster and, when the chart reads
// `.Capabilities`, the cluster's reported Kubernetes version and API versions. Clusters whose
// inputs are the same share one render; a source without per-cluster inputs renders once. The
// groups come in the order of their first cluster by name, so the first is the one whose objects
// the fleet loads as templates.
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { ClusterValues, TemplateSource } from '../model/template-source.js';
import { matchLabelSelector } from '../select/match-label-selector.js';

/** The inputs a group of clusters renders a source with. */
export interface SourceRenderGroup {
  /** Cluster names, sorted; empty when the fleet has no cluster (one render with no per-cluster input). */
  clusters: string[];
  /** The clusterValues entries that apply, in order (each a values file after `spec.values`). */
  clusterValues: ReadonlyArray<Readonly<Record<string, unknown>>>;
  /** `--kube-version`: the clusters' reported version, when the chart reads `.Capabilities`. */
  kubeVersion?: string;
  /** `--api-versions`: `group/version` and `group/version/Kind` of every API the clusters report. */
  apiVersions: string[];
  /** What makes this group's render differ from another's: its values and facts (part of the render's cache key). */
  identity: string;
}

/** Returns the renders a source needs for the fleet's clusters, given what each cluster reported. */
export function planSourceRenders(opts: {
  source: TemplateSource;
  clusters: readonly Cluster[];
  status: ReadonlyMap<string, ClusterStatus>;
  /** Whether the chart's templates read `.Capabilities` (else the cluster facts are not inputs). */
  readsCapabilities: boolean;
}): SourceRenderGroup[] {
  const { source } = opts;
  const sorted = [...opts.clusters].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (source.kind !== 'HelmSource' || sorted.length === 0)
    return [{ clusters: sorted.map((c) => c.name), clusterValues: [], apiVersions: [], identity: '' }];
  const groups = new Map<string, SourceRenderGroup>();
  for (const cluster of sorted) {
    const entries = source.clusterValues.filter((entry) => picks(entry, cluster));
    const facts = opts.readsCapabilities
      ? capabilitiesOf(opts.status.get(cluster.name))
      : { apiVersions: [] };
    const identity = JSON.stringify({ clusterValues: entries.map((e) => e.values), ...facts });
    const group = groups.get(identity);
    if (group) group.clusters.push(cluster.name);
    else
      groups.set(identity, {
        clusters: [cluster.name],
        clusterValues: entries.map((e) => e.values),
        ...facts,
        identity,
      });
  }
  return [...groups.values()];
}

function picks(entry: ClusterValues, cluster: Cluster): boolean {
  if (entry.clusterNames !== undefined && !entry.clusterNames.includes(cluster.name)) return false;
  if (entry.clusterSelector !== undefined && !matchLabelSelector(entry.clusterSelector, cluster.labels))
    return false;
  return entry.clusterNames !== undefined || entry.clusterSelector !== undefined;
}

// Helm's --kube-version and --api-versions from a cluster's report; nothing reported, nothing
// passed (Helm's defaults apply, as for `helm template` without them).
function capabilitiesOf(status: ClusterStatus | undefined): { kubeVersion?: string; apiVersions: string[] } {
  const apiVersions = new Set<string>();
  for (const enablement of status?.apiEnablements ?? []) {
    apiVersions.add(enablement.groupVersion);
    for (const r of enablement.resources) apiVersions.add(`${enablement.groupVersion}/${r.kind}`);
  }
  const version = status?.kubernetesVersion;
  return {
    ...(version !== undefined && version !== '' ? { kubeVersion: version } : {}),
    apiVersions: [...apiVersions].sort(),
  };
}
