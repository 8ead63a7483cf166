// The fields of OverridePolicy and ClusterOverridePolicy (policy.karmada.io/v1alpha1), which
// share OverrideSpec (pkg/apis/policy/v1alpha1/override_types.go; the CRDs
// policy.karmada.io_overridepolicies.yaml and _clusteroverridepolicies.yaml). The deprecated
// spec.targetCluster and spec.overriders are still accepted, as Karmada accepts them.
import { listOf, object, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';
import { overriders } from './overriders-schema.js';
import { clusterAffinity, resourceSelector } from './selector-schemas.js';

/** OverrideSpec. */
export const overrideSpec: ObjectSchema = object({
  resourceSelectors: listOf(resourceSelector),
  overrideRules: listOf(object({ targetCluster: clusterAffinity, overriders })),
  targetCluster: clusterAffinity,
  overriders,
});

/** An OverridePolicy or ClusterOverridePolicy document. */
export const overridePolicySchema: ObjectSchema = topLevel({ spec: overrideSpec });
