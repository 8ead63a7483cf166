// PropagationPolicy and ClusterPropagationPolicy (policy.karmada.io/v1alpha1), with the defaults
// Karmada's webhooks and CRDs fill in and the checks its validating webhooks make.
//
// Defaults (pkg/webhook/propagationpolicy/mutating.go, pkg/webhook/clusterpropagationpolicy/mutating.go,
// CRD defaults in charts/karmada/_crds/bases/policy/):
// | field                          | default                                                    |
// |--------------------------------|------------------------------------------------------------|
// | resourceSelectors[].namespace  | the policy's namespace (PropagationPolicy only)            |
// | priority                       | 0                                                          |
// | preemption                     | Never                                                      |
// | conflictResolution             | Abort                                                      |
// | propagateDeps                  | false; forced true when a ServiceImport is selected        |
// | schedulerName                  | default-scheduler                                          |
// | preserveResourcesOnDeletion    | false                                                      |
// | dependentOverrides             | []                                                         |
// | placement                      | see parse-placement.ts                                     |
//
// Checks (ValidatePropagationSpec, pkg/util/validation/validation.go): resourceSelectors required
// and non-empty (CRD minItems 1); a namespaced policy selects only its own namespace; with
// `preemption: Always` every selector names its resource; suspension.dispatching excludes
// dispatchingOnClusters; failover as in parse-failover.ts (kept, with its defaults); schedulePriority's required fields
// and source enum (CRD).
import type { PropagationPolicy, PropagationPolicyKind } from '../model/propagation-policy.js';
import type { ResourceSelector } from '../model/selectors.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  childPath,
  compact,
  isAbsent,
  itemPath,
  readBool,
  readEnum,
  readInt,
  readMap,
  readRequiredEnum,
  readRequiredString,
  readString,
  readStringList,
  type Issues,
} from './field-reader.js';
import { parseFailover } from './parse-failover.js';
import { parsePlacement } from './parse-placement.js';
import { parseResourceSelectors } from './parse-selectors.js';

/** What a policy parser is given: the document and where it came from. */
export interface PolicyDocument<K extends string> {
  object: Record<string, unknown>;
  kind: K;
  /** '' for cluster-scoped kinds. */
  namespace: string;
  name: string;
  source: SourceLocation;
}

const PREEMPTIONS = ['Always', 'Never'] as const;
const CONFLICT_RESOLUTIONS = ['Abort', 'Overwrite'] as const;

/** Returns the typed, defaulted policy, or the list of problems found in it. */
export function parsePropagationPolicy(
  doc: PolicyDocument<PropagationPolicyKind>,
): { ok: true; policy: PropagationPolicy } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues) ?? {};
  const selectors = readSelectors(spec, doc.namespace, issues);
  const preemption = readEnum(spec['preemption'], PREEMPTIONS, 'spec.preemption', issues) ?? 'Never';
  if (preemption === 'Always') requireSelectorNames(selectors, issues);
  const propagateDeps =
    (readBool(spec['propagateDeps'], 'spec.propagateDeps', issues) ?? false) ||
    selectsServiceImport(selectors);
  const failover = parseFailover(spec['failover'], propagateDeps, 'spec.failover', issues);
  checkSchedulePriority(spec['schedulePriority'], 'spec.schedulePriority', issues);
  const policy = compact<PropagationPolicy>({
    kind: doc.kind,
    name: doc.name,
    namespace: doc.namespace,
    resourceSelectors: selectors,
    placement: parsePlacement(spec['placement'], 'spec.placement', issues),
    priority: readInt(spec['priority'], 'spec.priority', issues) ?? 0,
    preemption,
    propagateDeps,
    conflictResolution:
      readEnum(spec['conflictResolution'], CONFLICT_RESOLUTIONS, 'spec.conflictResolution', issues) ??
      'Abort',
    preserveResourcesOnDeletion:
      readBool(spec['preserveResourcesOnDeletion'], 'spec.preserveResourcesOnDeletion', issues) ?? false,
    dependentOverrides: readStringList(spec['dependentOverrides'], 'spec.dependentOverrides', issues) ?? [],
    activationPreference: readEnum(
      spec['activationPreference'],
      ['Lazy'],
      'spec.activationPreference',
      issues,
    ),
    suspension: parseSuspension(spec['suspension'], 'spec.suspension', issues),
    failover,
    schedulerName: readString(spec['schedulerName'], 'spec.schedulerName', issues) || 'default-scheduler',
    source: doc.source,
  });
  return issues.length === 0 ? { ok: true, policy } : { ok: false, issues };
}

function readSelectors(spec: Record<string, unknown>, namespace: string, issues: Issues): ResourceSelector[] {
  const path = 'spec.resourceSelectors';
  const raw = spec['resourceSelectors'];
  const selectors = parseResourceSelectors(raw, path, namespace, issues) ?? [];
  if (isAbsent(raw) || (Array.isArray(raw) && raw.length === 0)) {
    // Karmada: "Nil or empty selector is not allowed and doesn't mean match all kinds".
    issues.push({ path, message: 'is required and must not be empty' });
  }
  return selectors;
}

function requireSelectorNames(selectors: ResourceSelector[], issues: Issues): void {
  selectors.forEach((s, i) => {
    if (s.name === undefined) {
      issues.push({
        path: childPath(itemPath('spec.resourceSelectors', i), 'name'),
        message:
          'name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption',
      });
    }
  });
}

// helper.ContainsServiceImport (pkg/util/helper/policy.go): selecting an MCS ServiceImport forces propagateDeps.
function selectsServiceImport(selectors: ResourceSelector[]): boolean {
  return selectors.some(
    (s) => s.kind === 'ServiceImport' && s.apiVersion === 'multicluster.x-k8s.io/v1alpha1',
  );
}

// The CRD's SchedulePriority: both fields required, KubePriorityClass the only source. gitfleet
// checks it and does not act on it (it has no scheduling queue to order).
function checkSchedulePriority(value: unknown, path: string, issues: Issues): void {
  const map = readMap(value, path, issues);
  if (map === undefined) return;
  readRequiredEnum(
    map['priorityClassSource'],
    ['KubePriorityClass'],
    childPath(path, 'priorityClassSource'),
    issues,
  );
  readRequiredString(map['priorityClassName'], childPath(path, 'priorityClassName'), issues);
}

function parseSuspension(value: unknown, path: string, issues: Issues): PropagationPolicy['suspension'] {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const dispatching = readBool(map['dispatching'], childPath(path, 'dispatching'), issues);
  const onPath = childPath(path, 'dispatchingOnClusters');
  const on = readMap(map['dispatchingOnClusters'], onPath, issues);
  const clusterNames = on
    ? (readStringList(on['clusterNames'], childPath(onPath, 'clusterNames'), issues) ?? [])
    : undefined;
  if (dispatching === true && clusterNames !== undefined && clusterNames.length > 0) {
    issues.push({
      path,
      message: 'suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames',
    });
  }
  return compact<NonNullable<PropagationPolicy['suspension']>>({
    dispatching,
    dispatchingOnClusters: clusterNames === undefined ? undefined : { clusterNames },
  });
}
