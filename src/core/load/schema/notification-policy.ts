// The fields of gitfleet's NotificationPolicy (gitfleet.io/v1alpha1; core/load/parse-notification-policy.ts).
import { anyValue, listOf, object, stringList, type ObjectSchema } from './field-schema.js';
import { topLevel } from './object-meta.js';
import { labelSelector } from './selector-schemas.js';

const receiver = object({
  name: anyValue,
  type: anyValue,
  url: anyValue,
  urlFile: anyValue,
  secretRef: object({ name: anyValue, key: anyValue }),
  hmacKeyFile: anyValue,
  repository: anyValue,
  tokenFile: anyValue,
  context: anyValue,
});

const route = object({
  events: stringList,
  severity: anyValue,
  clusters: object({ selector: labelSelector }),
  namespaces: stringList,
  receivers: stringList,
});

/** A NotificationPolicy document. */
export const notificationPolicySchema: ObjectSchema = topLevel({
  spec: object({ receivers: listOf(receiver), routes: listOf(route) }),
});
