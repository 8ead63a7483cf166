import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { conditionsOf, stringAt } from './object-fields.js';

/**
 * Returns the health of a core Pod.
 *
 * | state                                                                     | health      |
 * |---------------------------------------------------------------------------|-------------|
 * | restartPolicy Always and a container waiting with a reason starting `Err` or ending in `Error` / `BackOff` (CrashLoopBackOff, ImagePullBackOff, ErrImagePull, CreateContainerConfigError) | Degraded |
 * | phase Pending                                                             | Progressing |
 * | phase Succeeded                                                           | Healthy     |
 * | phase Failed                                                              | Degraded    |
 * | phase Running, restartPolicy Always, Ready condition True                 | Healthy     |
 * | phase Running, restartPolicy Always, not ready, a container terminated before | Degraded |
 * | phase Running otherwise                                                   | Progressing |
 * | anything else                                                             | Unknown     |
 *
 * Sources: gitops-engine `pkg/health/health_pod.go`; Karmada interpretPodHealth
 * (`pkg/resourceinterpreter/default/native/healthy.go`): Succeeded, or Running and Ready.
 */
export function podHealth(live: KubeObject): Health {
  const restartPolicy = stringAt(live, ['spec', 'restartPolicy']) || 'Always';
  const statuses = containerStatuses(live);
  if (restartPolicy === 'Always') {
    const stuck = statuses.filter((s) => isFailingWait(stringAt(s, ['state', 'waiting', 'reason'])));
    if (stuck.length > 0) {
      return health('Degraded', stuck.map((s) => waitingMessage(s)).join('; '));
    }
  }
  const message = stringAt(live, ['status', 'message']);
  switch (stringAt(live, ['status', 'phase'])) {
    case 'Pending':
      return health('Progressing', message || 'Pod is pending');
    case 'Succeeded':
      return health('Healthy', message);
    case 'Failed':
      return health('Degraded', message || stringAt(live, ['status', 'reason']) || 'Pod failed');
    case 'Running':
      return runningHealth(live, restartPolicy, statuses);
    default:
      return health('Unknown', message);
  }
}

function runningHealth(live: KubeObject, restartPolicy: string, statuses: Record<string, unknown>[]): Health {
  if (restartPolicy !== 'Always') return health('Progressing', 'Pod is running');
  const ready = conditionsOf(getPath(live, ['status', 'conditions'])).find((c) => c.type === 'Ready');
  if (ready?.status === 'True') return health('Healthy', stringAt(live, ['status', 'message']));
  const restarted = statuses.find((s) => isMap(getPath(s, ['lastState', 'terminated'])));
  if (restarted) {
    return health('Degraded', `container ${stringAt(restarted, ['name'])} terminated and is not ready`);
  }
  return health('Progressing', 'Pod is running but not ready');
}

// Containers and init containers alike: a stuck init container blocks the pod just the same.
function containerStatuses(live: KubeObject): Record<string, unknown>[] {
  const lists = [
    getPath(live, ['status', 'initContainerStatuses']),
    getPath(live, ['status', 'containerStatuses']),
  ];
  return lists.flatMap((list) => (Array.isArray(list) ? list.filter(isMap) : []));
}

function isFailingWait(reason: string): boolean {
  return reason.startsWith('Err') || reason.endsWith('Error') || reason.endsWith('BackOff');
}

function waitingMessage(status: Record<string, unknown>): string {
  const reason = stringAt(status, ['state', 'waiting', 'reason']);
  const message = stringAt(status, ['state', 'waiting', 'message']);
  return `container ${stringAt(status, ['name'])}: ${reason}${message ? `: ${message}` : ''}`;
}
