import type { Binding } from '../model/binding.js';
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { ExportedSlice } from '../model/exported-slice.js';
import type { Template } from '../model/fleet.js';
import type { KubeObject } from '../model/kube-object.js';
import type { SourceLocation } from '../model/source-location.js';

/** What the multi-cluster service stage reads (render-multi-cluster-services.ts). */
export interface McsInput {
  templates: ReadonlyMap<string, Template>;
  /** Every binding after the follow stage, by key. */
  bindingsByKey: ReadonlyMap<string, Binding>;
  registered: ReadonlyMap<string, Cluster>;
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  exportedSlices: ReadonlyMap<string, readonly ExportedSlice[]>;
  /**
   * False when the render has no status (`validate`, `render`, `diff --no-hub-state`): no agent's
   * report was read, so "no agent reports an EndpointSlice" is not known, only not asked.
   */
  slicesReported: boolean;
  /** Where the rules add their diagnostics. */
  diagnostics: Diagnostic[];
}

/** One object the stage makes, and the clusters it goes to. */
export interface McsObject {
  object: KubeObject;
  clusters: readonly string[];
  /**
   * The ServiceImport binding it is made for, if any: it follows it as a dependency (Karmada's
   * dependency interpreter lists the derived Service and its slices), with its conflict
   * resolution and preservation.
   */
  referrer?: Binding;
  /** The fleet file of the ServiceImport or MultiClusterService it is made for. */
  source: SourceLocation;
  /**
   * Set for a repo template placed on more clusters (a MultiClusterService's Service on its
   * consumers): the object is that template, not a made-up one.
   */
  extends?: string;
}
