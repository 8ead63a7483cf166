// Objects of the multi-cluster services tests on the fake cluster: a Service exported by a
// ServiceExport (multicluster.x-k8s.io/v1alpha1, whose CRD the branch carries as a member
// cluster needs it) and the EndpointSlices the member's endpointslice controller would write.
import type { KubeObject } from '../../../src/core/model/kube-object.js';

/** The ServiceExport CRD, as the MCS API ships it (only what the fake and the agent need). */
export function serviceExportCrd(): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'serviceexports.multicluster.x-k8s.io' },
    spec: {
      group: 'multicluster.x-k8s.io',
      scope: 'Namespaced',
      names: {
        plural: 'serviceexports',
        singular: 'serviceexport',
        kind: 'ServiceExport',
        listKind: 'ServiceExportList',
      },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

export function aServiceExport(namespace: string, name: string): KubeObject {
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ServiceExport',
    metadata: { namespace, name },
  };
}

export function aService(namespace: string, name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace, name },
    spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
  };
}

/** An EndpointSlice of a Service with one ready endpoint per address, in the given order. */
export function anEndpointSlice(
  namespace: string,
  service: string,
  name: string,
  addresses: readonly string[],
  labels: Record<string, string> = {},
): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      namespace,
      name,
      labels: {
        'kubernetes.io/service-name': service,
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
        ...labels,
      },
    },
    addressType: 'IPv4',
    endpoints: addresses.map((a, i) => ({
      addresses: [a],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: `node-${i}`,
      targetRef: { kind: 'Pod', namespace, name: `${service}-${i}` },
    })),
    ports: [
      { name: 'metrics', port: 9090, protocol: 'TCP' },
      { name: 'http', port: 8080, protocol: 'TCP' },
    ],
  };
}
