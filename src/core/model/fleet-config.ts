import { defaultDeletionGuard, type DeletionGuard } from './mass-deletion-guard.js';
import type { SourceLocation } from './source-location.js';
import type { RenderRepository } from './render-repository.js';
import type { StatusRepository } from './status-repository.js';
import type { SourceVerification } from './source-verification.js';

/** Repo-level settings (gitfleet.io/v1alpha1 FleetConfig), with defaults filled in. */
export interface FleetConfig {
  /** Glob-like path prefixes to read; empty means the whole repo. */
  include: string[];
  /** Path prefixes or globs to skip. */
  exclude: string[];
  /** Regexes (anchored) of namespaces never propagated; Karmada's default is `kube-.*`. */
  skippedNamespaces: string[];
  /** Skipped APIs as Karmada's --skipped-propagating-apis: `group`, `group/version` or `group/version/Kind`. */
  skippedApis: string[];
  /** Prefix of every ref gitfleet writes. */
  branchPrefix: string;
  /** The mass-deletion guard's thresholds, for the hub's render and the agents' prune alike. */
  guards: DeletionGuard;
  /**
   * Whether ClusterTaintPolicies may add NoExecute taints (Karmada's webhook flag
   * --allow-no-execute-taint-policy, default false). Set only when true.
   */
  allowNoExecuteTaintPolicy?: boolean;
  /**
   * Where agents write status and heartbeats instead of the fleet repository
   * (assign-status-repository.ts). Set only when the FleetConfig lists at least one.
   */
  statusRepositories?: StatusRepository[];
  /**
   * Where the hub writes cluster branches instead of the fleet repository
   * (assign-render-repository.ts). Set only when the FleetConfig lists at least one.
   */
  renderRepositories?: RenderRepository[];
  /** Which keys must sign the source commits the hub renders (docs/security.md). Set only when present. */
  sourceVerification?: SourceVerification;
  source?: SourceLocation;
}

/** The prefix of every ref gitfleet writes when the FleetConfig names none. */
export const defaultBranchPrefix = 'gitfleet/';

/** Returns the configuration used when the repo has no FleetConfig. */
export function defaultFleetConfig(): FleetConfig {
  return {
    include: [],
    exclude: [],
    skippedNamespaces: ['kube-.*'],
    skippedApis: [],
    branchPrefix: defaultBranchPrefix,
    guards: { ...defaultDeletionGuard },
  };
}
