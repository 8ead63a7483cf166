/** Something a render wants a user to know; never thrown, always returned. */
export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  /** A stable code, e.g. `NoClusterFit`, `OverrideFailed`. */
  code: DiagnosticCode;
  /** The object or policy the message is about, e.g. `Deployment/default/nginx`. */
  subject: string;
  cluster?: string;
  message: string;
}

export type DiagnosticCode =
  | 'NoPolicyMatch'
  | 'NoClusterFit'
  | 'ScheduleFailed'
  | 'OverrideFailed'
  /** A SOPS-encrypted template placed on a cluster whose age recipient is not among the file's (core/secrets/check-recipient.ts). */
  | 'AgeRecipientMissing'
  /** A rendered object larger than the API server accepts (core/render/check-render-size.ts): held on that cluster. */
  | 'ObjectTooLarge'
  /** A copy a Tenant's rules refuse (core/tenancy, docs/tenants.md): held on that cluster. */
  | 'TenantRefused'
  /** A placement that would take a FederatedResourceQuota past its overall limit (core/quota): held on every cluster. */
  | 'QuotaExceeded'
  /** A copy a ValidatingAdmissionPolicy's Deny binding refuses on a cluster (core/admission, docs/admission-policies.md): held on that cluster. */
  | 'AdmissionDenied'
  /** A copy a ValidatingAdmissionPolicy's Warn binding fails on a cluster: rendered, with a warning. */
  | 'AdmissionWarning'
  /** A copy a ValidatingAdmissionPolicy's Audit binding fails, or an audit annotation: recorded, rendered. */
  | 'AdmissionAudit'
  /** A policy or binding on a cluster that cannot be evaluated: an expression that does not compile, a missing policy, a paramRef that does not fit. */
  | 'AdmissionPolicyInvalid'
  | 'ReviseFailed'
  | 'DependencyMissing'
  | 'WaitingForOverrides'
  | 'Skipped'
  /** An exported EndpointSlice's file on a status branch did not parse: refused for that cluster only. */
  | 'ExportRefused'
  | 'DispatchSuspended'
  /** A policy names a cluster that no Cluster document registers. */
  | 'UnregisteredCluster'
  /**
   * The hub's mass-deletion guard refused a cluster branch update
   * (docs/architecture.md#mass-deletion-guard).
   */
  | 'DeletionRefused'
  /**
   * A cluster's render repository cannot be read or refused the write: its branch and its
   * records keep their last published state (docs/git-budget.md#render-repositories).
   */
  | 'RenderRepositoryUnavailable'
  /** A ServiceImport whose Service no cluster exports (or that derives nothing): no endpoints. */
  | 'ServiceNotExported'
  /** Clusters exporting one Service report different ports. */
  | 'ServicePortConflict'
  /** An object a multi-cluster service would make already exists in the fleet repo. */
  | 'ImportConflict'
  /** A MultiClusterService whose Service is not in the fleet repo. */
  | 'ServiceMissing'
  /** A rollout's gate failed (an object Degraded, or the step past its progress deadline): the later steps are held. */
  | 'RolloutHalted'
  /** A rollout waits for a person: a Manual step without its Gitfleet-Approve trailer. */
  | 'RolloutWaitingApproval'
  /** A Gitfleet-Approve trailer that does not count: not signed by an approver, or by the change's own maker (core/rollout/judge-approval.ts). */
  | 'RolloutApprovalRefused'
  /** A strategy with Manual steps names no spec.approvers: any Gitfleet-Approve trailer approves them, unverified. */
  | 'RolloutApprovalsUnverified'
  /** A record on a hub branch that the hub's keys did not sign: not trusted (loops/hub/trust-hub-records.ts). */
  | 'RecordUntrusted'
  /** An unsigned bindings head the operator vouched for with `hub --adopt-records`: read as the hub's own. */
  | 'RecordAdopted'
  /** A cluster's status head is not signed by the key of its registration: ignored (loops/hub/accept-status-heads.ts). */
  | 'StatusRefused'
  /** A cluster's registration names no signing key: its reports are read unverified. */
  | 'StatusUnverified';

/** Returns `subject[@cluster]: message`. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.severity}: ${d.subject}${d.cluster ? ` @${d.cluster}` : ''}: ${d.message}`;
}
