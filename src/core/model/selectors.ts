/** Kubernetes label selector (metav1.LabelSelector). */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator;
  values?: string[];
}

/** Karmada's FieldSelector: node-selector requirements on provider, region and zone. */
export interface FieldSelector {
  matchExpressions: FieldSelectorRequirement[];
}

export type FieldSelectorKey = 'provider' | 'region' | 'zone';
export type FieldSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface FieldSelectorRequirement {
  key: FieldSelectorKey;
  operator: FieldSelectorOperator;
  values?: string[];
}

/** Karmada's ResourceSelector (policy.karmada.io/v1alpha1). */
export interface ResourceSelector {
  apiVersion: string;
  kind: string;
  /** Defaulted to the policy's namespace for namespaced policies. */
  namespace?: string;
  name?: string;
  labelSelector?: LabelSelector;
}

/** Karmada's ClusterAffinity. */
export interface ClusterAffinity {
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
  clusterNames?: string[];
  exclude?: string[];
}
