// Builders of the Kubernetes objects tests apply: the agent's unit tests on the fake cluster,
// its tests on real API servers, and the CRD tests. Each returns a fresh object.
import type { KubeObject } from '../../src/core/model/kube-object.js';

/** Returns a Namespace. */
export function aNamespace(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

/** Returns a ConfigMap. */
export function aConfigMap(namespace: string, name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

/** Returns a Deployment of one replica of a pause-like image. */
export function aDeployment(namespace: string, name: string, replicas = 1): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: 'registry.invalid/pause:1' }] },
      },
    },
  };
}

/**
 * Returns a CRD `widgets.<group>` (kind Widget, namespaced, served at v1) whose schema for
 * `spec` is `specSchema`; by default it keeps any field under spec.
 */
export function aWidgetCrd(
  group: string,
  specSchema: Record<string, unknown> = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema } } },
        },
      ],
    },
  };
}

/** Returns a Widget custom resource (of aWidgetCrd's kind). */
export function aWidget(
  group: string,
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
): KubeObject {
  return { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, namespace }, spec };
}
