// Turns each document into its typed model (template, cluster, policy) and keeps identities
// unique, collecting every error instead of stopping at the first. In two steps, so a load
// can reuse what an unchanged file gave last time:
// 1. collectFile: one file's documents → its items, in order (depends on that file only);
// 2. mergeItems: the items of every file, in file order → the fleet's lists, with identities
//    checked across files (the first definition wins; later ones are DuplicateIdentity).
import type { Cluster } from '../model/cluster.js';
import type { ClusterTaintPolicy, WorkloadRebalancer } from '../model/failover.js';
import type { InterpreterCustomization } from '../model/interpreter-customization.js';
import type { Template } from '../model/fleet.js';
import { isMap } from '../model/kube-object.js';
import { identityKey } from '../model/identity-key.js';
import { refKey, refLabel, type ObjectRef } from '../model/object-ref.js';
import { effectiveNamespace } from './default-namespace.js';
import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import { type SourceLocation } from '../model/source-location.js';
import type { LoadError } from './load-error.js';
import type { RolloutStrategy } from '../model/rollout.js';
import type { Tenant } from '../model/tenant.js';
import type { NotificationPolicy } from '../model/notification-policy.js';
import { collectNotificationPolicy } from './collect-notification-policy.js';
import type { FederatedResourceQuota } from '../model/federated-resource-quota.js';
import type { TemplateSource } from '../model/template-source.js';
import type { RawDocument } from './parse-yaml-stream.js';
import { readEnvelope, type Envelope } from './read-envelope.js';
import { isSopsDocument } from '../secrets/sops-metadata.js';
import { checkSopsTemplate } from '../secrets/check-sops-template.js';

import { errorAt, failed, issuesAt, placeLabel, type CollectedItem, type Place } from './collected-item.js';
import {
  collectCluster,
  collectClusterTaintPolicy,
  collectInterpreterCustomization,
  collectPolicy,
  collectQuota,
  collectRolloutStrategy,
  collectTemplateSource,
  collectTenant,
  collectWorkloadRebalancer,
} from './collect-kinds.js';

export type { CollectedItem };

/** Everything collected so far. */
export interface Collection {
  templates: Template[];
  clusters: Cluster[];
  propagationPolicies: PropagationPolicy[];
  overridePolicies: OverridePolicy[];
  interpreterCustomizations: InterpreterCustomization[];
  clusterTaintPolicies: ClusterTaintPolicy[];
  workloadRebalancers: WorkloadRebalancer[];
  rolloutStrategies: RolloutStrategy[];
  tenants: Tenant[];
  notificationPolicies: NotificationPolicy[];
  federatedResourceQuotas: FederatedResourceQuota[];
  templateSources: TemplateSource[];
  errors: LoadError[];
  /** identityKey → where it was first seen, and the apiVersion it was written with. */
  identities: Map<string, { at: string; apiVersion: string }>;
  /** `file#index` of the FleetConfigs findFleetConfig already read and reported on. */
  fleetConfigsSeen: ReadonlySet<string>;
  /** Where the FleetConfig in use is, for messages. */
  fleetConfigAt: string | undefined;
}

/** Returns an empty collection. */
export function newCollection(fleetConfigsSeen: ReadonlySet<string>, fleetConfigAt?: string): Collection {
  return {
    templates: [],
    clusters: [],
    propagationPolicies: [],
    overridePolicies: [],
    interpreterCustomizations: [],
    clusterTaintPolicies: [],
    workloadRebalancers: [],
    rolloutStrategies: [],
    tenants: [],
    notificationPolicies: [],
    federatedResourceQuotas: [],
    templateSources: [],
    errors: [],
    identities: new Map(),
    fleetConfigsSeen,
    fleetConfigAt,
  };
}

/**
 * Returns the items of one file's documents, in order (a v1 List gives one per item). A file a
 * HelmSource rendered gives its release namespace to the namespaced objects written without one.
 */
export function collectFile(
  file: string,
  documents: readonly RawDocument[],
  releaseNamespace?: string,
): CollectedItem[] {
  const items: CollectedItem[] = [];
  for (const doc of documents) {
    const source: SourceLocation = { file, index: doc.index, line: doc.line };
    const v = doc.value;
    if (!isMap(v) || v['apiVersion'] !== 'v1' || v['kind'] !== 'List')
      items.push(collectObject({ source }, v, releaseNamespace));
    else if (!Array.isArray(v['items']))
      items.push(failed({ source }, 'MissingField', 'List: items: is required and must be a list'));
    else
      v['items'].forEach((item: unknown, i: number) =>
        items.push(collectObject({ source, item: i }, item, releaseNamespace)),
      );
  }
  return items;
}

/** Adds one file's items to the collection. */
export function mergeItems(c: Collection, items: readonly CollectedItem[]): void {
  for (const item of items) {
    switch (item.type) {
      case 'errors':
        c.errors.push(...item.errors);
        break;
      case 'fleetConfig':
        mergeFleetConfig(c, item.place);
        break;
      case 'template':
        if (claimIdentity(c, item.place, item.ref)) c.templates.push(item.template);
        break;
      case 'cluster':
        if (claimIdentity(c, item.place, item.ref)) c.clusters.push(item.cluster);
        break;
      case 'propagationPolicy':
        if (claimIdentity(c, item.place, item.ref)) c.propagationPolicies.push(item.policy);
        break;
      case 'overridePolicy':
        if (claimIdentity(c, item.place, item.ref)) c.overridePolicies.push(item.policy);
        break;
      case 'interpreterCustomization':
        if (claimIdentity(c, item.place, item.ref)) c.interpreterCustomizations.push(item.customization);
        break;
      case 'clusterTaintPolicy':
        if (claimIdentity(c, item.place, item.ref)) c.clusterTaintPolicies.push(item.policy);
        break;
      case 'workloadRebalancer':
        if (claimIdentity(c, item.place, item.ref)) c.workloadRebalancers.push(item.rebalancer);
        break;
      case 'rolloutStrategy':
        if (claimIdentity(c, item.place, item.ref)) c.rolloutStrategies.push(item.strategy);
        break;
      case 'tenant':
        if (claimIdentity(c, item.place, item.ref)) c.tenants.push(item.tenant);
        break;
      case 'notificationPolicy':
        if (claimIdentity(c, item.place, item.ref)) c.notificationPolicies.push(item.policy);
        break;
      case 'quota':
        if (claimIdentity(c, item.place, item.ref)) c.federatedResourceQuotas.push(item.quota);
        break;
      case 'templateSource':
        if (claimIdentity(c, item.place, item.ref)) c.templateSources.push(item.templateSource);
    }
  }
}

function collectObject(at: Place, value: unknown, releaseNamespace?: string): CollectedItem {
  // A SOPS-encrypted document: only a template may be.
  const sops = isMap(value) && isSopsDocument(value) ? value : undefined;
  const read = readEnvelopeOf(at, value, sops);
  if (!('envelope' in read)) return read;
  const e = read.envelope;
  switch (e.role) {
    case 'FleetConfig':
      return { place: at, type: 'fleetConfig' };
    case 'Cluster':
      return collectCluster(at, e);
    case 'PropagationPolicy':
    case 'ClusterPropagationPolicy':
    case 'OverridePolicy':
    case 'ClusterOverridePolicy':
      return collectPolicy(at, e, e.role);
    case 'ResourceInterpreterCustomization':
      return collectInterpreterCustomization(at, e);
    case 'ClusterTaintPolicy':
      return collectClusterTaintPolicy(at, e);
    case 'WorkloadRebalancer':
      return collectWorkloadRebalancer(at, e);
    case 'RolloutStrategy':
    case 'ClusterRolloutStrategy':
      return collectRolloutStrategy(at, e, e.role);
    case 'Tenant':
      return collectTenant(at, e);
    case 'NotificationPolicy': {
      const got = collectNotificationPolicy(at.source, e);
      if (!got.ok) return issuesAt(at, 'InvalidPolicy', `NotificationPolicy/${e.name}`, got.issues);
      return { place: at, type: 'notificationPolicy', ref: got.ref, policy: got.policy };
    }
    case 'FederatedResourceQuota':
      return collectQuota(at, e);
    case 'TemplateSource':
      return collectTemplateSource(at, e);
    case 'Template':
      return collectTemplate(at, e, { encrypted: sops !== undefined, releaseNamespace });
  }
}

/**
 * Returns a template, its namespace defaulted: a namespaced object written without one is in
 * `default`, or in the release namespace of the HelmSource that rendered it.
 */
function collectTemplate(
  at: Place,
  e: Envelope,
  opts: { encrypted: boolean; releaseNamespace: string | undefined },
): CollectedItem {
  const written =
    e.namespace ||
    (opts.releaseNamespace && effectiveNamespace(e.apiVersion, e.kind, '') ? opts.releaseNamespace : '');
  const namespace = effectiveNamespace(e.apiVersion, e.kind, written);
  if (namespace !== e.namespace) e.object.metadata.namespace = namespace;
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace, name: e.name };
  const template: Template = { ref, key: refKey(ref), object: e.object, source: at.source };
  if (opts.encrypted) template.encrypted = { defaultedNamespace: namespace !== e.namespace };
  return { place: at, type: 'template', ref, template };
}

/**
 * Returns the document's envelope, or its errors: a broken envelope, or SOPS encryption
 * anywhere but on a template the hub can leave sealed.
 */
function readEnvelopeOf(
  at: Place,
  value: unknown,
  sops: Record<string, unknown> | undefined,
): CollectedItem | { envelope: Envelope } {
  if (sops) {
    const problem = checkSopsTemplate(sops, rawSubject(value).slice(0, -2) || 'document');
    if (problem !== undefined) return failed(at, 'UnsupportedEncryption', problem);
  }
  const read = readEnvelope(value);
  if (!read.ok) {
    const subject = rawSubject(value);
    return {
      place: at,
      type: 'errors',
      errors: read.problems.map((p) => errorAt(at, p.code, subject + p.message)),
    };
  }
  const e = read.envelope;
  if (sops && e.role !== 'Template')
    return failed(
      at,
      'UnsupportedEncryption',
      `${e.kind}/${e.name}: SOPS-encrypted, but only templates may be: the hub reads a ${e.kind}`,
    );
  return { envelope: e };
}

// A template source is rendered by the loops (loops/source/load-with-sources.ts); it is never propagated.
function mergeFleetConfig(c: Collection, at: Place): void {
  if (at.item === undefined && c.fleetConfigsSeen.has(`${at.source.file}#${at.source.index}`)) return;
  const first = c.fleetConfigAt === undefined ? '' : ` (the one in use is at ${c.fleetConfigAt})`;
  c.errors.push(
    errorAt(
      at,
      'TooManyFleetConfigs',
      `FleetConfig: a repo has one FleetConfig, at the top level of a file${first}`,
    ),
  );
}

function claimIdentity(c: Collection, at: Place, ref: ObjectRef): boolean {
  const key = identityKey(ref);
  const here = placeLabel(at);
  const first = c.identities.get(key);
  if (first === undefined) {
    c.identities.set(key, { at: here, apiVersion: ref.apiVersion });
    return true;
  }
  const message =
    first.apiVersion === ref.apiVersion
      ? `${refLabel(ref)}: defined twice, at ${first.at} and at ${here}`
      : `${refLabel(ref)}: defined twice, at ${first.at} as ${first.apiVersion} and at ${here} as ${ref.apiVersion}: ` +
        'the API server keeps both versions as one object';
  c.errors.push(errorAt(at, 'DuplicateIdentity', message));
  return false;
}

// The subject of a document whose envelope is broken, as far as it can be told: `Kind/name: `.
function rawSubject(value: unknown): string {
  if (!isMap(value) || typeof value['kind'] !== 'string') return '';
  const metadata = value['metadata'];
  const name = isMap(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : '';
  return name ? `${value['kind']}/${name}: ` : `${value['kind']}: `;
}
