// The fields of gitfleet's own FleetConfig (gitfleet.io/v1alpha1), as parse-fleet-config.ts reads
// them. A field added there is added here too, or the strict check refuses it.
import { anyValue, listOf, object, stringList, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';

/** A FleetConfig document. */
export const fleetConfigSchema: ObjectSchema = topLevel({
  spec: object({
    paths: object({ include: stringList, exclude: stringList }),
    skippedNamespaces: stringList,
    skippedApis: stringList,
    branchPrefix: anyValue,
    guards: object({ maxDeleteFraction: anyValue, minObjects: anyValue }),
    allowNoExecuteTaintPolicy: anyValue,
    statusRepositories: listOf(object({ name: anyValue, url: anyValue })),
    renderRepositories: listOf(object({ name: anyValue, url: anyValue })),
    sourceVerification: object({ mode: anyValue, allowedSigners: anyValue, openpgpKeys: anyValue }),
  }),
});
