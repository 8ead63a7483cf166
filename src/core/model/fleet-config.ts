import type { SourceLocation } from './source-location.js';

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
  guards: {
    /** Refuse a render that deletes more than this share of a cluster's objects (when it has more than `minObjects`). */
    maxDeleteFraction: number;
    minObjects: number;
  };
  source?: SourceLocation;
}

/** Returns the configuration used when the repo has no FleetConfig. */
export function defaultFleetConfig(): FleetConfig {
  return {
    include: [],
    exclude: [],
    skippedNamespaces: ['kube-.*'],
    skippedApis: [],
    branchPrefix: 'gitfleet/',
    guards: { maxDeleteFraction: 0.5, minObjects: 10 },
  };
}
