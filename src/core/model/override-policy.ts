import type { JsonValue } from './kube-object.js';
import type { ClusterAffinity, ResourceSelector } from './selectors.js';
import type { SourceLocation } from './source-location.js';

export interface ImageOverrider {
  predicate?: { path: string };
  component: 'Registry' | 'Repository' | 'Tag';
  operator: 'add' | 'remove' | 'replace';
  value?: string;
}

export interface CommandArgsOverrider {
  containerName: string;
  operator: 'add' | 'remove';
  value?: string[];
}

export interface LabelAnnotationOverrider {
  operator: 'add' | 'remove' | 'replace';
  value?: Record<string, string>;
}

export interface FieldOverrideOperation {
  subPath: string;
  operator: 'add' | 'remove' | 'replace';
  value?: JsonValue;
}

export interface FieldOverrider {
  fieldPath: string;
  json?: FieldOverrideOperation[];
  yaml?: FieldOverrideOperation[];
}

export interface PlaintextOverrider {
  path: string;
  operator: 'add' | 'remove' | 'replace';
  value?: JsonValue;
}

/** Karmada's Overriders; applied in this field order. */
export interface Overriders {
  imageOverrider?: ImageOverrider[];
  commandOverrider?: CommandArgsOverrider[];
  argsOverrider?: CommandArgsOverrider[];
  labelsOverrider?: LabelAnnotationOverrider[];
  annotationsOverrider?: LabelAnnotationOverrider[];
  fieldOverrider?: FieldOverrider[];
  plaintext?: PlaintextOverrider[];
}

export interface OverrideRule {
  /** Absent: every cluster. */
  targetCluster?: ClusterAffinity;
  overriders: Overriders;
}

export type OverridePolicyKind = 'OverridePolicy' | 'ClusterOverridePolicy';

/** An OverridePolicy or ClusterOverridePolicy; the deprecated targetCluster+overriders form is folded into one rule. */
export interface OverridePolicy {
  kind: OverridePolicyKind;
  name: string;
  /** Empty for ClusterOverridePolicy. */
  namespace: string;
  /** Absent or empty: every resource. */
  resourceSelectors?: ResourceSelector[];
  overrideRules: OverrideRule[];
  source: SourceLocation;
}
