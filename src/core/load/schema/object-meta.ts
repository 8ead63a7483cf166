// metav1.ObjectMeta and the other apimachinery types every kind shares
// (k8s.io/apimachinery/pkg/apis/meta/v1/types.go). Custom resources get exactly these metadata
// fields: a structural schema may not say more about metadata than name and generateName.
import {
  anyValue,
  listOf,
  object,
  stringList,
  stringMap,
  type FieldSchema,
  type ObjectSchema,
} from './field-schema.js';

const ownerReference = object({
  apiVersion: anyValue,
  kind: anyValue,
  name: anyValue,
  uid: anyValue,
  controller: anyValue,
  blockOwnerDeletion: anyValue,
});

const managedFieldsEntry = object({
  manager: anyValue,
  operation: anyValue,
  apiVersion: anyValue,
  time: anyValue,
  fieldsType: anyValue,
  fieldsV1: anyValue,
  subresource: anyValue,
});

/** metav1.ObjectMeta. */
export const objectMeta: ObjectSchema = object({
  name: anyValue,
  generateName: anyValue,
  namespace: anyValue,
  selfLink: anyValue,
  uid: anyValue,
  resourceVersion: anyValue,
  generation: anyValue,
  creationTimestamp: anyValue,
  deletionTimestamp: anyValue,
  deletionGracePeriodSeconds: anyValue,
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: listOf(ownerReference),
  finalizers: stringList,
  managedFields: listOf(managedFieldsEntry),
});

/** metav1.Condition. */
export const condition: ObjectSchema = object({
  type: anyValue,
  status: anyValue,
  observedGeneration: anyValue,
  lastTransitionTime: anyValue,
  reason: anyValue,
  message: anyValue,
});

/** Returns the schema of a top-level object: apiVersion, kind, metadata and the given fields. */
export function topLevel(fields: Readonly<Record<string, FieldSchema>>): ObjectSchema {
  return object({ apiVersion: anyValue, kind: anyValue, metadata: objectMeta, ...fields });
}
