// The fields of gitfleet's HelmSource and KustomizeSource (gitfleet.io/v1alpha1), as
// parse-template-source.ts reads them. A field added there is added here too, or the strict
// check refuses it: a misspelt `valueFiles` would otherwise render without the values it names.
// `values` are the chart's own and not checked.
import { anyValue, listOf, object, stringList, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';
import { labelSelector } from './selector-schemas.js';

/** A HelmSource document. */
export const helmSourceSchema: ObjectSchema = topLevel({
  spec: object({
    chart: object({
      path: anyValue,
      repoURL: anyValue,
      name: anyValue,
      version: anyValue,
      digest: anyValue,
      oci: anyValue,
    }),
    releaseName: anyValue,
    namespace: anyValue,
    values: anyValue,
    valuesFiles: stringList,
    clusterValues: listOf(
      object({ clusterNames: stringList, clusterSelector: labelSelector, values: anyValue }),
    ),
  }),
});

/** A KustomizeSource document. */
export const kustomizeSourceSchema: ObjectSchema = topLevel({ spec: object({ path: anyValue }) });
