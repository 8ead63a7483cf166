// The fields of gitfleet's Tenant (gitfleet.io/v1alpha1; core/load/parse-tenant.ts).
import { anyValue, listOf, object, stringList, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';
import { labelSelector } from './selector-schemas.js';

const groupKind = object({ group: anyValue, kind: anyValue });

/** A Tenant document. */
export const tenantSchema: ObjectSchema = topLevel({
  spec: object({
    paths: stringList,
    namespaces: stringList,
    clusters: object({ names: stringList, selector: labelSelector }),
    allowedKinds: listOf(groupKind),
    deniedKinds: listOf(groupKind),
    clusterScoped: anyValue,
    impersonate: object({ serviceAccount: anyValue }),
  }),
});
