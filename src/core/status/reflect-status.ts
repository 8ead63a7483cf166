import type { ResourceInterpreter } from '../model/resource-interpreter.js';
import { getPath, isMap, deepCopy, type KubeObject } from '../model/kube-object.js';
import { groupOf } from '../model/object-ref.js';

// Karmada's annotation with the generation of the resource template a member object came from.
const templateGenerationAnnotation = 'resourcetemplate.karmada.io/generation';

/**
 * A field Karmada copies from a member object's `.status`; `keepZero` for fields Kubernetes
 * declares without `omitempty`, which Go's JSON marshalling writes even when zero, so the
 * reflected status has the same keys as Karmada's.
 */
interface PickedField {
  name: string;
  keepZero?: boolean;
}

type Reflector = (live: KubeObject, status: Record<string, unknown>) => Record<string, unknown> | undefined;

/**
 * The hand-picked status fields per kind, from Karmada
 * `pkg/resourceinterpreter/default/native/reflectstatus.go`; every other kind reflects its
 * whole `.status` (reflectWholeStatus). Keyed `group/Kind` (Karmada keys the exact version:
 * apps/v1, batch/v1, policy/v1, autoscaling/v2; the fields are the same in the others).
 *
 * | kind                    | fields                                                                 |
 * |-------------------------|------------------------------------------------------------------------|
 * | Deployment              | replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, observedGeneration, + generation, resourceTemplateGeneration |
 * | ReplicaSet              | replicas, readyReplicas, availableReplicas, observedGeneration, + generation, resourceTemplateGeneration |
 * | StatefulSet             | availableReplicas, currentReplicas, readyReplicas, replicas, updatedReplicas, + generation, resourceTemplateGeneration |
 * | DaemonSet               | currentNumberScheduled, desiredNumberScheduled, numberAvailable, numberMisscheduled, numberReady, updatedNumberScheduled, numberUnavailable, observedGeneration, + generation, resourceTemplateGeneration |
 * | Job                     | active, succeeded, failed, conditions, startTime, completionTime        |
 * | Service (LoadBalancer)  | loadBalancer (other Service types reflect nothing)                      |
 * | Ingress                 | the whole status                                                        |
 * | PodDisruptionBudget     | disruptionsAllowed, expectedPods, desiredHealthy, currentHealthy, disruptedPods |
 * | HorizontalPodAutoscaler | currentReplicas, desiredReplicas                                        |
 */
const reflectors: ReadonlyMap<string, Reflector> = new Map<string, Reflector>([
  [
    'apps/Deployment',
    withGenerations(
      [
        'replicas',
        'updatedReplicas',
        'readyReplicas',
        'availableReplicas',
        'unavailableReplicas',
        'observedGeneration',
      ].map(omitZero),
    ),
  ],
  [
    'apps/ReplicaSet',
    withGenerations([
      { name: 'replicas', keepZero: true },
      ...['readyReplicas', 'availableReplicas', 'observedGeneration'].map(omitZero),
    ]),
  ],
  [
    'apps/StatefulSet',
    withGenerations([
      { name: 'availableReplicas', keepZero: true },
      omitZero('currentReplicas'),
      omitZero('readyReplicas'),
      { name: 'replicas', keepZero: true },
      omitZero('updatedReplicas'),
    ]),
  ],
  [
    'apps/DaemonSet',
    withGenerations([
      ...['currentNumberScheduled', 'desiredNumberScheduled', 'numberMisscheduled', 'numberReady'].map(
        keepZero,
      ),
      ...['numberAvailable', 'updatedNumberScheduled', 'numberUnavailable', 'observedGeneration'].map(
        omitZero,
      ),
    ]),
  ],
  [
    'batch/Job',
    (_live, status) =>
      pick(
        status,
        ['active', 'succeeded', 'failed', 'conditions', 'startTime', 'completionTime'].map(omitZero),
      ),
  ],
  ['/Service', reflectService],
  [
    'policy/PodDisruptionBudget',
    (_live, status) =>
      pick(status, [
        ...['disruptionsAllowed', 'expectedPods', 'desiredHealthy', 'currentHealthy'].map(keepZero),
        omitZero('disruptedPods'),
      ]),
  ],
  [
    'autoscaling/HorizontalPodAutoscaler',
    (_live, status) => pick(status, [omitZero('currentReplicas'), keepZero('desiredReplicas')]),
  ],
]);

/**
 * Returns the status fields Karmada reflects from a member object into its Work (then into the
 * binding's aggregatedStatus): hand-picked fields for the kinds above, the whole `.status` for
 * the rest; undefined when the object has no status or nothing is left to reflect (Karmada
 * takes an empty Deployment status as "not collected yet"; gitfleet does so for every kind).
 * An InterpretStatus script for the object's kind replaces the built-in reflection (a failed
 * one reflects nothing).
 */
export function reflectStatus(
  live: KubeObject,
  interpreter?: ResourceInterpreter,
): Record<string, unknown> | undefined {
  const custom = interpreter?.reflectStatus(live);
  if (custom !== undefined)
    return custom.ok && Object.keys(custom.value).length > 0 ? custom.value : undefined;
  const status = live.status;
  if (!isMap(status)) return undefined;
  const reflector = reflectors.get(`${groupOf(live.apiVersion)}/${live.kind}`);
  const picked = reflector ? reflector(live, status) : deepCopy(status);
  return picked && Object.keys(picked).length > 0 ? picked : undefined;
}

function omitZero(name: string): PickedField {
  return { name };
}

function keepZero(name: string): PickedField {
  return { name, keepZero: true };
}

// Go's omitempty drops 0, "", false, nil and empty lists and maps.
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === 0 || value === '' || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isMap(value) && Object.keys(value).length === 0;
}

function pick(status: Record<string, unknown>, fields: readonly PickedField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, keepZero: keep } of fields) {
    const value = status[name];
    if (keep && (value === undefined || value === null)) out[name] = 0;
    else if (keep || !isEmpty(value)) out[name] = deepCopy(value);
  }
  return out;
}

// Karmada's FederatedGeneration: the member object's metadata.generation and the template
// generation from its annotation, both omitempty.
function withGenerations(fields: readonly PickedField[]): Reflector {
  return (live, status) => {
    const out = pick(status, fields);
    const generation = getPath(live, ['metadata', 'generation']);
    if (typeof generation === 'number' && generation !== 0) out.generation = generation;
    const templateGeneration = Number(live.metadata.annotations?.[templateGenerationAnnotation] ?? '');
    if (Number.isInteger(templateGeneration) && templateGeneration !== 0) {
      out.resourceTemplateGeneration = templateGeneration;
    }
    return out;
  };
}

// Only LoadBalancer Services reflect anything; Go writes the loadBalancer struct even when empty.
function reflectService(
  live: KubeObject,
  status: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (getPath(live, ['spec', 'type']) !== 'LoadBalancer') return undefined;
  const loadBalancer = status.loadBalancer;
  return { loadBalancer: isMap(loadBalancer) ? deepCopy(loadBalancer) : {} };
}
