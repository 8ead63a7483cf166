import type { TemplateSource } from './template-source.js';
import type { SourceProvenance } from './source-provenance.js';
import type { Cluster } from './cluster.js';
import type { ClusterTaintPolicy, WorkloadRebalancer } from './failover.js';
import type { FleetConfig } from './fleet-config.js';
import type { InterpreterCustomization } from './interpreter-customization.js';
import type { RolloutStrategy } from './rollout.js';
import type { ResourceInterpreter } from './resource-interpreter.js';
import type { KubeObject } from './kube-object.js';
import type { ObjectRef } from './object-ref.js';
import type { OverridePolicy } from './override-policy.js';
import type { PropagationPolicy } from './propagation-policy.js';
import type { SourceLocation } from './source-location.js';
import type { Tenant } from './tenant.js';
import type { NotificationPolicy } from './notification-policy.js';
import type { FederatedResourceQuota } from './federated-resource-quota.js';

/** A resource template: any document that is not a cluster, policy or fleet config. */
export interface Template {
  ref: ObjectRef;
  /** `refKey(ref)`, kept to avoid recomputing it. */
  key: string;
  object: KubeObject;
  source: SourceLocation;
  /**
   * What the fleet's customizations say of this template (core/interpret/interpret-templates.ts),
   * when one targets its apiVersion and kind; built-in interpretation applies where absent.
   */
  interpreted?: TemplateInterpretation;
  /**
   * Set for a SOPS-encrypted template (docs/secrets.md): the hub places it without decrypting it.
   * `defaultedNamespace`: its file names no namespace, the loader put it in `default`.
   */
  encrypted?: { defaultedNamespace: boolean };
  /**
   * Set for a template a source renders differently on some clusters (core/sources): the
   * object's content on each of those clusters, from which their copies are made; the other
   * clusters get `object` (docs/sources.md#per-cluster-rendering).
   */
  variants?: ReadonlyMap<string, KubeObject>;
}

/** What the customized interpreter read from a template before the render. */
export interface TemplateInterpretation {
  /** A content key of the scripts that apply to the template's kind (the render memo keys on it). */
  scriptsKey: string;
  /** GetReplicas: the replicas and one replica's resource request. */
  replicas?: { replicas: number; request?: { cpuMilli: number; memoryBytes: number; pods: 1 } };
  /** GetDependencies: what the template depends on for propagateDeps. */
  dependencies?: ObjectRef[];
  /** Whether a ReviseReplica script revises its replicas per cluster. */
  revisesReplicas: boolean;
  /** Why a script failed: the template is not rendered (the message names customization and operation). */
  error?: string;
}

/** A template source as loaded: the source and the repository paths it reads (find-source-inputs.ts). */
export interface LoadedTemplateSource {
  source: TemplateSource;
  inputs: readonly string[];
}

/** Everything loaded from one commit (or directory) of a fleet repo, validated and defaulted. */
export interface Fleet {
  templates: Template[];
  clusters: Cluster[];
  /** PropagationPolicies and ClusterPropagationPolicies. */
  propagationPolicies: PropagationPolicy[];
  /** OverridePolicies and ClusterOverridePolicies. */
  overridePolicies: OverridePolicy[];
  /** ResourceInterpreterCustomizations, in file order (never templates); absent when there are none. */
  interpreterCustomizations?: InterpreterCustomization[];
  /**
   * Runs the customizations' scripts: set by the loader's caller once per loaded fleet
   * (core/interpret/attach-interpreter.ts); absent, every kind is interpreted the built-in way.
   */
  interpreter?: ResourceInterpreter;
  /** ClusterTaintPolicies (policy.karmada.io/v1alpha1), in file order; absent when there are none. */
  clusterTaintPolicies?: ClusterTaintPolicy[];
  /** WorkloadRebalancers (apps.karmada.io/v1alpha1), in file order; absent when there are none. */
  workloadRebalancers?: WorkloadRebalancer[];
  /** RolloutStrategies and ClusterRolloutStrategies (gitfleet.io/v1alpha1), in file order; absent when there are none. */
  rolloutStrategies?: RolloutStrategy[];
  /** Tenants (gitfleet.io/v1alpha1), in file order; absent when there are none (core/tenancy). */
  tenants?: Tenant[];
  /** NotificationPolicies (gitfleet.io/v1alpha1), in file order; absent when there are none (docs/notifications.md). */
  notificationPolicies?: NotificationPolicy[];
  /** FederatedResourceQuotas (policy.karmada.io/v1alpha1), in file order; absent when there are none (core/quota). */
  federatedResourceQuotas?: FederatedResourceQuota[];
  /** HelmSources and KustomizeSources with the paths they read, in file order; absent when there are none. */
  templateSources?: LoadedTemplateSource[];
  /**
   * Rendered file (`<source document>@<chart file>`) → where its objects came from: the source,
   * chart or kustomization, digest and tool (docs/sources.md#provenance); absent without sources.
   */
  sourceProvenance?: ReadonlyMap<string, SourceProvenance>;
  config: FleetConfig;
}
