// Small workload templates for the override tests (the shared builders cover Deployments only).
import type { KubeObject } from '../../../src/core/model/kube-object.js';

/** Returns a `apiVersion`/`kind` object `default/name` with the given spec (or none). */
export function aWorkload(apiVersion: string, kind: string, spec?: Record<string, unknown>): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: { name: 'w', namespace: 'default' },
    ...(spec ? { spec } : {}),
  };
}

/** Returns a batch/v1 Job with the given parallelism and completions (each left out when undefined). */
export function aJob(parallelism?: number, completions?: number): KubeObject {
  return aWorkload('batch/v1', 'Job', {
    ...(parallelism !== undefined ? { parallelism } : {}),
    ...(completions !== undefined ? { completions } : {}),
    template: { spec: { containers: [{ name: 'main', image: 'busybox:1.36' }], restartPolicy: 'Never' } },
  });
}

/** Returns a v1 Pod with one container per image. */
export function aPod(images: string[]): KubeObject {
  return aWorkload('v1', 'Pod', {
    containers: images.map((image, i) => ({ name: `c${i}`, image })),
  });
}
