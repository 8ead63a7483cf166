// The rendered manifests of one member cluster, on their own so the stages that build them
// (assemble-clusters.ts), the memo that keeps them and the hub that writes them share the type
// without importing render-fleet.ts, which calls those stages.

/** The rendered manifests of one member cluster. */
export interface ClusterOutput {
  /**
   * Path in the cluster branch (docs/architecture.md#cluster-branches layout) → canonical YAML,
   * sorted by path.
   */
  files: ReadonlyMap<string, string>;
  /**
   * Paths of objects that failed to render on this cluster (e.g. a failing override), sorted by
   * path. Their previous content must be kept: a failed render is never a deletion.
   */
  held: Map<string, string>;
  /**
   * Set when this output was made from the output of the memo's render by changing only
   * `paths` (files and held alike): a consumer that has handled `from` need only look there.
   */
  derived?: { from: ClusterOutput; paths: ReadonlySet<string> };
}
