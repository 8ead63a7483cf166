// The fields of a Cluster (cluster.karmada.io/v1alpha1; pkg/apis/cluster/v1alpha1/types.go).
// Cluster is served by Karmada's aggregated API server, not by a CRD, so the Go types are the
// schema. Status is accepted, as the API server accepts it, though gitfleet reads the status its
// agents report instead.
import { anyValue, listOf, mapOf, object, stringList, stringMap, type ObjectSchema } from './field-schema.js';
import { condition, topLevel } from './object-meta.js';
import { taint } from './placement-schema.js';

const localSecretReference = object({ namespace: anyValue, name: anyValue });

// corev1.ResourceList: resource name → quantity.
const resourceList = mapOf(anyValue);

/** ClusterSpec. */
export const clusterSpec: ObjectSchema = object({
  id: anyValue,
  syncMode: anyValue,
  apiEndpoint: anyValue,
  secretRef: localSecretReference,
  impersonatorSecretRef: localSecretReference,
  insecureSkipTLSVerification: anyValue,
  proxyURL: anyValue,
  proxyHeader: stringMap,
  provider: anyValue,
  region: anyValue,
  zone: anyValue,
  zones: stringList,
  taints: listOf(taint),
  resourceModels: listOf(
    object({ grade: anyValue, ranges: listOf(object({ name: anyValue, min: anyValue, max: anyValue })) }),
  ),
});

/** ClusterStatus. */
export const clusterStatus: ObjectSchema = object({
  kubernetesVersion: anyValue,
  apiEnablements: listOf(
    object({ groupVersion: anyValue, resources: listOf(object({ name: anyValue, kind: anyValue })) }),
  ),
  conditions: listOf(condition),
  nodeSummary: object({ totalNum: anyValue, readyNum: anyValue }),
  resourceSummary: object({
    allocatable: resourceList,
    allocating: resourceList,
    allocated: resourceList,
    allocatableModelings: listOf(object({ grade: anyValue, count: anyValue })),
  }),
  remedyActions: stringList,
});

/** A Cluster document. */
export const clusterSchema: ObjectSchema = topLevel({ spec: clusterSpec, status: clusterStatus });
