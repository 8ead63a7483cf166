import type { LabelSelector } from './selectors.js';
import type { SourceLocation } from './source-location.js';

/** An API group and kind, as a Tenant names them; `*` in either matches any. */
export interface GroupKind {
  group: string;
  kind: string;
}

/**
 * A team's part of the fleet (gitfleet.io/v1alpha1 Tenant, cluster-scoped): the files it owns and
 * what the templates and policies in them may do (docs/tenants.md).
 */
export interface Tenant {
  name: string;
  /** Path patterns of the repository (core/load/path-patterns.ts) whose documents are the tenant's. */
  paths: string[];
  /** The namespaces its objects may be in. */
  namespaces: string[];
  /** The clusters its objects may go to: named, or matching the selector. */
  clusters: { names: string[]; selector?: LabelSelector };
  /** When given, only these kinds; absent: every kind the other rules allow. */
  allowedKinds?: GroupKind[];
  deniedKinds: GroupKind[];
  /** Whether it may create cluster-scoped objects other than its own Namespaces. */
  clusterScoped: boolean;
  /** The ServiceAccount the agent applies its objects as, so the member cluster enforces its RBAC too. */
  impersonate?: { serviceAccount: { namespace: string; name: string } };
  source: SourceLocation;
}
