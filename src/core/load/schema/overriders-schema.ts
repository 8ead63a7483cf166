// Karmada's Overriders and the rule types inside them (pkg/apis/policy/v1alpha1/override_types.go).
import { anyValue, listOf, object, stringList, stringMap, type ObjectSchema } from './field-schema.js';

// `value` of plaintext and of the JSON/YAML field patches is apiextensionsv1.JSON: any value.
const patch = object({ subPath: anyValue, operator: anyValue, value: anyValue });

const containerArgs = object({ containerName: anyValue, operator: anyValue, value: stringList });

const metadataPatch = object({ operator: anyValue, value: stringMap });

/** Karmada's Overriders. */
export const overriders: ObjectSchema = object({
  plaintext: listOf(object({ path: anyValue, operator: anyValue, value: anyValue })),
  imageOverrider: listOf(
    object({
      predicate: object({ path: anyValue }),
      component: anyValue,
      operator: anyValue,
      value: anyValue,
    }),
  ),
  commandOverrider: listOf(containerArgs),
  argsOverrider: listOf(containerArgs),
  labelsOverrider: listOf(metadataPatch),
  annotationsOverrider: listOf(metadataPatch),
  fieldOverrider: listOf(object({ fieldPath: anyValue, json: listOf(patch), yaml: listOf(patch) })),
});
