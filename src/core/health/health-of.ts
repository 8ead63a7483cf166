import { groupOf } from '../model/object-ref.js';
import type { KubeObject } from '../model/kube-object.js';
import type { InterpretOutcome, ResourceInterpreter } from '../model/resource-interpreter.js';
import { customResourceDefinitionHealth } from './custom-resource-definition-health.js';
import { daemonSetHealth } from './daemon-set-health.js';
import { deploymentHealth } from './deployment-health.js';
import { genericHealth } from './generic-health.js';
import { health, type Health, type HealthContext } from './health.js';
import { horizontalPodAutoscalerHealth } from './horizontal-pod-autoscaler-health.js';
import { ingressHealth } from './ingress-health.js';
import { jobHealth } from './job-health.js';
import { namespaceHealth } from './namespace-health.js';
import { persistentVolumeClaimHealth } from './persistent-volume-claim-health.js';
import { podDisruptionBudgetHealth } from './pod-disruption-budget-health.js';
import { podHealth } from './pod-health.js';
import { replicaSetHealth } from './replica-set-health.js';
import { serviceHealth } from './service-health.js';
import { statefulSetHealth } from './stateful-set-health.js';

export type { Health, HealthContext, HealthStatus } from './health.js';

type HealthRule = (live: KubeObject, context: HealthContext) => Health;

// One rule per kind, keyed `group/Kind` (the version does not change the status fields these
// rules read). Every other kind gets genericHealth.
const rules: ReadonlyMap<string, HealthRule> = new Map([
  ['apps/Deployment', deploymentHealth],
  ['apps/StatefulSet', statefulSetHealth],
  ['apps/DaemonSet', daemonSetHealth],
  ['apps/ReplicaSet', replicaSetHealth],
  ['batch/Job', jobHealth],
  ['/Pod', podHealth],
  ['/Service', serviceHealth],
  ['networking.k8s.io/Ingress', ingressHealth],
  ['extensions/Ingress', ingressHealth],
  ['/PersistentVolumeClaim', persistentVolumeClaimHealth],
  ['/Namespace', namespaceHealth],
  ['apiextensions.k8s.io/CustomResourceDefinition', customResourceDefinitionHealth],
  ['autoscaling/HorizontalPodAutoscaler', horizontalPodAutoscalerHealth],
  ['policy/PodDisruptionBudget', podDisruptionBudgetHealth],
]);

/**
 * Returns the health of a live object read from a member cluster: Progressing while it is being
 * deleted (as gitops-engine's GetResourceHealth does first), else its kind's rule, else the
 * generic condition rule. An InterpretHealth script for the object's kind replaces the rule
 * (Karmada asks the customized interpreter first, pkg/resourceinterpreter/interpreter.go):
 * true is Healthy, false Degraded, a failed script Unknown with its error.
 */
export function healthOf(
  live: KubeObject,
  interpreter?: ResourceInterpreter,
  context: HealthContext = {},
): Health {
  if (live.metadata.deletionTimestamp) return health('Progressing', 'Pending deletion');
  const custom = interpreter?.interpretHealth(live);
  if (custom !== undefined) return customHealth(custom);
  const rule = rules.get(`${groupOf(live.apiVersion)}/${live.kind}`) ?? genericHealth;
  return rule(live, context);
}

function customHealth(outcome: InterpretOutcome<boolean>): Health {
  if (!outcome.ok) return health('Unknown', outcome.error);
  return outcome.value ? health('Healthy') : health('Degraded', 'unhealthy by its InterpretHealth script');
}
