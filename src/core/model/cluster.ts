import type { SourceLocation } from './source-location.js';

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect;
  tolerationSeconds?: number;
}

/** A member cluster as registered in the fleet repo (cluster.karmada.io/v1alpha1 Cluster). */
export interface Cluster {
  name: string;
  labels: Record<string, string>;
  provider?: string;
  region?: string;
  /** `spec.zones`, with the legacy single `spec.zone` folded in. */
  zones: string[];
  taints: Taint[];
  syncMode: 'Push' | 'Pull';
  /**
   * The agent's public signing key (`ssh-ed25519 AAAA… comment`, the annotation
   * gitfleet.io/signing-key): the hub accepts the cluster's reports only when signed with it.
   * Absent: the reports are read unverified (docs/onboarding.md#the-hub-checks-the-reports).
   */
  signingKey?: string;
  /**
   * The age recipient its agent decrypts SOPS files with (`age1…`, the annotation
   * gitfleet.io/age-recipient; docs/secrets.md). Absent: no encrypted template may be placed on it.
   */
  ageRecipient?: string;
  source: SourceLocation;
}

export interface ApiEnablement {
  groupVersion: string;
  /**
   * `namespaced` is gitfleet's addition to Karmada's APIResource (name, kind): the scope of a
   * kind whose CRD is not in the fleet. Absent in older reports.
   */
  resources: { name: string; kind: string; namespaced?: boolean }[];
}

/** What an agent reports about its cluster (Karmada's ClusterStatus), an input of the render. */
export interface ClusterStatus {
  kubernetesVersion?: string;
  apiEnablements?: ApiEnablement[];
  conditions?: { type: string; status: 'True' | 'False' | 'Unknown'; reason?: string; message?: string }[];
  nodeSummary?: { totalNum: number; readyNum: number };
  resourceSummary?: {
    allocatable?: Record<string, string>;
    allocating?: Record<string, string>;
    allocated?: Record<string, string>;
  };
}
