// The fields of gitfleet's RolloutStrategy and ClusterRolloutStrategy (gitfleet.io/v1alpha1), as
// parse-rollout-strategy.ts reads them. A field added there is added here too, or the strict
// check refuses it. Checked to the leaves, selectors included: a misspelt `clusterNames` would
// otherwise leave an empty ClusterAffinity, which matches every cluster, and the first step
// would move the whole fleet.
import { anyValue, listOf, object, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';
import { clusterAffinity, resourceSelector } from './selector-schemas.js';

const step = object({
  clusters: clusterAffinity,
  soakSeconds: anyValue,
  maxUnavailable: anyValue,
  approval: anyValue,
});

/** A RolloutStrategy or ClusterRolloutStrategy document. */
export const rolloutStrategySchema: ObjectSchema = topLevel({
  spec: object({
    resourceSelectors: listOf(resourceSelector),
    steps: listOf(step),
    progressDeadlineSeconds: anyValue,
    onFailure: anyValue,
    approvers: object({ allowedSigners: anyValue, openpgpKeys: anyValue, allowSelfApproval: anyValue }),
  }),
});
