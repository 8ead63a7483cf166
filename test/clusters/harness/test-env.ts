// The environment variables through which tests find the clusters.
import type { ClustersState } from './cluster-state.js';

/** Returns the variables tests read: kubeconfig, context names, and what runs beside the API servers. */
export function testEnv(state: ClustersState): Record<string, string> {
  return {
    GITFLEET_TEST_KUBECONFIG: state.kubeconfig,
    GITFLEET_TEST_CLUSTERS: state.clusters.map((c) => c.name).join(','),
    GITFLEET_TEST_CONTROLLERS: String(state.controllers),
    GITFLEET_TEST_KWOK: String(state.kwok),
    GITFLEET_K8S_BIN: state.binDir,
  };
}
