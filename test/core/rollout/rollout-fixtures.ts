// Small inputs for the rollout table tests: strategies, templates and clusters built by hand,
// with the defaults the loader gives (soak 0, Auto, deadline 600, Halt).
import type { Template } from '../../../src/core/model/fleet.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type { RolloutStep, RolloutStrategy } from '../../../src/core/model/rollout.js';
import type { ResourceSelector } from '../../../src/core/model/selectors.js';

/** Returns a step with the loader's defaults and the given fields. */
export function aStep(extra: Partial<RolloutStep> = {}): RolloutStep {
  return { soakSeconds: 0, approval: 'Auto', ...extra };
}

/**
 * Returns a strategy: a RolloutStrategy of `namespace` (default `shop`), or with namespace '' a
 * ClusterRolloutStrategy, selecting `selectors` (default: Deployment web) in `steps`.
 */
export function aStrategy(name: string, extra: Partial<Omit<RolloutStrategy, 'name'>> = {}): RolloutStrategy {
  const namespace = extra.namespace ?? 'shop';
  return {
    kind: namespace ? 'RolloutStrategy' : 'ClusterRolloutStrategy',
    namespace,
    name,
    resourceSelectors: [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', ...(namespace ? { namespace } : {}) },
    ],
    steps: [aStep()],
    progressDeadlineSeconds: 600,
    onFailure: 'Halt',
    source: { file: `policies/${name}.yaml`, index: 0 },
    ...extra,
  };
}

/** Returns selectors of one kind, optionally by name or labels. */
export function select(
  kind: string,
  opts: { apiVersion?: string; namespace?: string; name?: string; labels?: Record<string, string> } = {},
): ResourceSelector {
  return {
    apiVersion: opts.apiVersion ?? 'apps/v1',
    kind,
    ...(opts.namespace ? { namespace: opts.namespace } : {}),
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.labels ? { labelSelector: { matchLabels: opts.labels } } : {}),
  };
}

/** Returns a template `namespace/name` of the kind (apps/v1 unless said), with labels. */
export function aTemplate(
  kind: string,
  name: string,
  opts: { apiVersion?: string; namespace?: string; labels?: Record<string, string> } = {},
): Template {
  const ref: ObjectRef = {
    apiVersion: opts.apiVersion ?? 'apps/v1',
    kind,
    namespace: opts.namespace ?? 'shop',
    name,
  };
  const object: KubeObject = {
    apiVersion: ref.apiVersion,
    kind,
    metadata: {
      name,
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      ...(opts.labels ? { labels: opts.labels } : {}),
    },
  };
  return { ref, key: refKey(ref), object, source: { file: `apps/${name}.yaml`, index: 0 } };
}
