// One object of a fleet file as the load collects it (collect-documents.ts), and the errors at its place.
import type { Cluster } from '../model/cluster.js';
import type { ClusterTaintPolicy, WorkloadRebalancer } from '../model/failover.js';
import type { InterpreterCustomization } from '../model/interpreter-customization.js';
import type { Template } from '../model/fleet.js';
import { type ObjectRef } from '../model/object-ref.js';
import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import { locationLabel, type SourceLocation } from '../model/source-location.js';
import type { Issues } from './field-reader.js';
import type { LoadError, LoadErrorCode } from './load-error.js';
import type { RolloutStrategy } from '../model/rollout.js';
import type { Tenant } from '../model/tenant.js';
import type { NotificationPolicy } from '../model/notification-policy.js';
import type { FederatedResourceQuota } from '../model/federated-resource-quota.js';
import type { TemplateSource } from '../model/template-source.js';

/** Where one object sits: a document, or an item of a `kind: List` document. */
export interface Place {
  source: SourceLocation;
  item?: number;
}

/** One object of a file, typed, or the errors that keep it out. */
export type CollectedItem = { place: Place } & (
  | { type: 'template'; ref: ObjectRef; template: Template }
  | { type: 'cluster'; ref: ObjectRef; cluster: Cluster }
  | { type: 'propagationPolicy'; ref: ObjectRef; policy: PropagationPolicy }
  | { type: 'overridePolicy'; ref: ObjectRef; policy: OverridePolicy }
  | { type: 'interpreterCustomization'; ref: ObjectRef; customization: InterpreterCustomization }
  | { type: 'clusterTaintPolicy'; ref: ObjectRef; policy: ClusterTaintPolicy }
  | { type: 'workloadRebalancer'; ref: ObjectRef; rebalancer: WorkloadRebalancer }
  | { type: 'rolloutStrategy'; ref: ObjectRef; strategy: RolloutStrategy }
  | { type: 'tenant'; ref: ObjectRef; tenant: Tenant }
  | { type: 'notificationPolicy'; ref: ObjectRef; policy: NotificationPolicy }
  | { type: 'quota'; ref: ObjectRef; quota: FederatedResourceQuota }
  | { type: 'templateSource'; ref: ObjectRef; templateSource: TemplateSource }
  | { type: 'fleetConfig' }
  | { type: 'errors'; errors: LoadError[] }
);

/** The errors of a document whose fields do not parse, one per issue. */
export function issuesAt(at: Place, code: LoadErrorCode, subject: string, issues: Issues): CollectedItem {
  return {
    place: at,
    type: 'errors',
    errors: issues.map((issue) => errorAt(at, code, `${subject}: ${issue.path}: ${issue.message}`)),
  };
}

/** One error that keeps a document out. */
export function failed(at: Place, code: LoadErrorCode, message: string): CollectedItem {
  return { place: at, type: 'errors', errors: [errorAt(at, code, message)] };
}

/** A load error at the place, with the List item it is in. */
export function errorAt(at: Place, code: LoadErrorCode, message: string): LoadError {
  const prefix = at.item === undefined ? '' : `items[${at.item}]: `;
  return { code, ...at.source, message: prefix + message };
}

/** Where a document is, for messages. */
export function placeLabel(at: Place): string {
  return locationLabel(at.source) + (at.item === undefined ? '' : ` items[${at.item}]`);
}
