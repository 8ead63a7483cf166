// The ResourceQuotas a FederatedResourceQuota makes (Karmada's sync controller,
// pkg/controllers/federatedresourcequota/federated_resource_quota_sync_controller.go buildWorks):
// one per cluster of spec.staticAssignments, none for any other cluster (since Karmada v1.14),
// named and namespaced as the quota, with spec.hard the cluster's assignment. Karmada labels the
// Work with the quota's namespace and name; gitfleet has no Work, so the ResourceQuota carries
// the labels. A cluster named twice gets the first assignment (extractClusterHardResourceList).
import type { Binding } from '../model/binding.js';
import { quotaLabel, type FederatedResourceQuota } from '../model/federated-resource-quota.js';
import type { Template } from '../model/fleet.js';
import type { KubeObject } from '../model/kube-object.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import { followerBinding } from '../follow/follower-binding.js';
import { emitYaml } from '../format/emit-yaml.js';
import { objectPath } from '../format/object-path.js';
import { decorateObject } from './decorate-object.js';
import type { RenderedCopy } from './render-object.js';

/** Karmada's labels naming the FederatedResourceQuota a ResourceQuota comes from. */
export const quotaNamespaceLabel = 'federatedresourcequota.karmada.io/namespace';
export const quotaNameLabel = 'federatedresourcequota.karmada.io/name';

/** The ResourceQuota of one FederatedResourceQuota, as a unit of the render. */
export interface QuotaUnit {
  /** The unit's id: the ResourceQuota's key with a mark of its own. */
  id: string;
  quota: FederatedResourceQuota;
  template: Template;
  /** Placed on the clusters of spec.staticAssignments. */
  binding: Binding;
}

// Made once per quota object: a load reuses the object of an unchanged file, so the render memo
// finds the same unit, binding and template again.
const made = new WeakMap<FederatedResourceQuota, QuotaUnit>();

/** Returns the ResourceQuota unit of each quota with static assignments, in the quotas' order. */
export function quotaUnitsOf(quotas: readonly FederatedResourceQuota[] | undefined): QuotaUnit[] {
  const units: QuotaUnit[] = [];
  for (const quota of quotas ?? []) {
    if (quota.staticAssignments.length === 0) continue;
    let unit = made.get(quota);
    if (!unit) made.set(quota, (unit = makeUnit(quota)));
    units.push(unit);
  }
  return units;
}

function makeUnit(quota: FederatedResourceQuota): QuotaUnit {
  const ref: ObjectRef = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    namespace: quota.namespace,
    name: quota.name,
  };
  const key = refKey(ref);
  const clusters = [...new Set(quota.staticAssignments.map((a) => a.clusterName))];
  const object: KubeObject = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: quota.name, namespace: quota.namespace, labels: labelsOf(quota) },
    spec: { hard: { ...quota.overall } },
  };
  return {
    id: `${key}\u0000${quotaLabel(quota)}`,
    quota,
    template: { ref, key, object, source: quota.source },
    binding: followerBinding({ ref, origin: 'quota', clusters }),
  };
}

function labelsOf(quota: FederatedResourceQuota): Record<string, string> {
  return { [quotaNamespaceLabel]: quota.namespace, [quotaNameLabel]: quota.name };
}

/** Returns the ResourceQuota the quota makes on a cluster of its static assignments. */
export function renderQuotaCopy(unit: QuotaUnit, cluster: string): RenderedCopy {
  const { quota } = unit;
  const hard = quota.staticAssignments.find((a) => a.clusterName === cluster)?.hard ?? {};
  const object: KubeObject = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: quota.name, namespace: quota.namespace, labels: labelsOf(quota) },
    spec: { hard: { ...hard } },
  };
  decorateObject(object, unit.binding, quota.source.file, []);
  const text = emitYaml(object);
  return { key: `quota\u0000${text}`, outcome: { ok: true, path: objectPath(unit.template.ref), text } };
}
