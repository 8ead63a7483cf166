// A NotificationPolicy (gitfleet.io/v1alpha1, cluster-scoped; docs/notifications.md#the-policy).
//
// | field                              | rule                                                          |
// |------------------------------------|---------------------------------------------------------------|
// | spec.receivers[].name              | required, a DNS-1123 label, unique in the policy              |
// | spec.receivers[].type              | webhook, slack, teams, github, gitlab or gitea                |
// | url / urlFile / secretRef          | exactly one; `url` only for a webhook (a chat URL is a secret) |
// | urlFile, hmacKeyFile               | a plain file name of --notifications-secrets-dir (no `/`, no leading `.`) |
// | secretRef                          | {name, key}: a Secret of the hub's namespace                  |
// | hmacKeyFile                        | webhook only                                                  |
// | github, gitlab, gitea receivers     | repository, url (the API), tokenFile / secretRef, context: parse-forge-receiver.ts |
// | spec.routes[].events               | required: event types (core/model/fleet-event-type.ts) or `*`     |
// | spec.routes[].severity             | info (default), warning or error: the least severe taken      |
// | spec.routes[].clusters.selector    | a label selector over the Cluster registrations' labels       |
// | spec.routes[].namespaces           | DNS-1123 labels                                               |
// | spec.routes[].receivers            | required, names of receivers of this policy                   |
import {
  eventSeverities,
  isForgeReceiverType,
  receiverTypes,
  type NotificationPolicy,
  type NotificationReceiverSpec,
  type NotificationRoute,
  type SecretSource,
} from '../model/notification-policy.js';
import type { SourceLocation } from '../model/source-location.js';
import { isFleetEventType } from '../model/fleet-event-type.js';
import {
  childPath,
  isAbsent,
  readEnum,
  readList,
  readMap,
  readRequiredEnum,
  readRequiredString,
  readString,
  readStringList,
  type Issues,
} from './field-reader.js';
import { checkDns1123Label } from './name-rules.js';
import { forgeFields, readForgeReceiver } from './parse-forge-receiver.js';
import { readSecretFile, readSecretRef } from './read-secret-source.js';
import { parseLabelSelector } from './parse-selectors.js';

/** Returns the typed policy, or the list of problems found in it. */
export function parseNotificationPolicy(doc: {
  object: Record<string, unknown>;
  name: string;
  source: SourceLocation;
}): { ok: true; policy: NotificationPolicy } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues);
  if (spec === undefined) return { ok: false, issues: [...issues, { path: 'spec', message: 'is required' }] };
  const receivers = readList(spec['receivers'], 'spec.receivers', issues, (v, p) =>
    readReceiver(v, p, issues),
  );
  if (!receivers || receivers.length === 0)
    issues.push({ path: 'spec.receivers', message: 'is required and must name at least one receiver' });
  const names = new Set<string>();
  for (const [i, r] of (receivers ?? []).entries()) {
    if (names.has(r.name))
      issues.push({ path: `spec.receivers[${i}].name`, message: `"${r.name}" is named twice` });
    names.add(r.name);
  }
  const routes = readList(spec['routes'], 'spec.routes', issues, (v, p) => readRoute(v, p, names, issues));
  if (!routes || routes.length === 0)
    issues.push({ path: 'spec.routes', message: 'is required and must have at least one route' });
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, policy: { name: doc.name, receivers: receivers!, routes: routes!, source: doc.source } };
}

function readReceiver(value: unknown, path: string, issues: Issues): NotificationReceiverSpec | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const before = issues.length;
  const name = readRequiredString(map['name'], childPath(path, 'name'), issues);
  const bad = name === undefined ? undefined : checkDns1123Label(name);
  if (bad) issues.push({ path: childPath(path, 'name'), message: `"${name}": ${bad}` });
  const type = readRequiredEnum(map['type'], receiverTypes, childPath(path, 'type'), issues);
  if (type !== undefined && isForgeReceiverType(type)) {
    const spec = readForgeReceiver(map, path, type, issues);
    return issues.length > before || name === undefined || spec === undefined ? undefined : { name, ...spec };
  }
  for (const field of forgeFields)
    if (!isAbsent(map[field]) && type !== undefined)
      issues.push({
        path: childPath(path, field),
        message: `only a github, gitlab or gitea receiver has it, not a ${type}`,
      });
  const url = readUrlSource(map, path, type, issues);
  const hmacKeyFile = readSecretFile(map['hmacKeyFile'], childPath(path, 'hmacKeyFile'), issues);
  if (hmacKeyFile !== undefined && type !== undefined && type !== 'webhook')
    issues.push({
      path: childPath(path, 'hmacKeyFile'),
      message: `only a webhook signs its body, not a ${type}`,
    });
  if (issues.length > before || name === undefined || type === undefined || url === undefined)
    return undefined;
  return { name, type, url, ...(hmacKeyFile !== undefined ? { hmacKeyFile } : {}) };
}

function readUrlSource(
  map: Record<string, unknown>,
  path: string,
  type: string | undefined,
  issues: Issues,
): SecretSource | undefined {
  const given = (['url', 'urlFile', 'secretRef'] as const).filter((k) => !isAbsent(map[k]));
  if (given.length !== 1) {
    const message = given.length === 0 ? 'is required' : `give one of them, not ${given.join(' and ')}`;
    issues.push({ path: `${path}.url|urlFile|secretRef`, message });
    return undefined;
  }
  if (given[0] === 'url') {
    const url = readString(map['url'], childPath(path, 'url'), issues);
    if (url === undefined) return undefined;
    if (type !== undefined && type !== 'webhook') {
      issues.push({
        path: childPath(path, 'url'),
        message: `a ${type} URL holds its credential: name a file (urlFile) or a Secret (secretRef), never the URL`,
      });
      return undefined;
    }
    if (!/^https?:\/\/[^\s/]+/.test(url)) {
      issues.push({ path: childPath(path, 'url'), message: 'must be an http:// or https:// URL' });
      return undefined;
    }
    return { type: 'inline', value: url };
  }
  if (given[0] === 'urlFile') {
    const file = readSecretFile(map['urlFile'], childPath(path, 'urlFile'), issues);
    return file === undefined ? undefined : { type: 'file', file };
  }
  return readSecretRef(map['secretRef'], childPath(path, 'secretRef'), issues);
}

function readRoute(
  value: unknown,
  path: string,
  receivers: ReadonlySet<string>,
  issues: Issues,
): NotificationRoute | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const before = issues.length;
  const events = readStringList(map['events'], childPath(path, 'events'), issues) ?? [];
  if (events.length === 0)
    issues.push({ path: childPath(path, 'events'), message: 'is required: event types, or "*"' });
  events.forEach((e, i) => {
    if (e !== '*' && !isFleetEventType(e))
      issues.push({
        path: `${path}.events[${i}]`,
        message: `"${e}" is no event type (docs/notifications.md#events)`,
      });
  });
  const severity = readEnum(map['severity'], eventSeverities, childPath(path, 'severity'), issues) ?? 'info';
  const clusterMap = readMap(map['clusters'], childPath(path, 'clusters'), issues);
  const clusters = parseLabelSelector(clusterMap?.['selector'], `${path}.clusters.selector`, issues);
  const namespaces = readStringList(map['namespaces'], childPath(path, 'namespaces'), issues) ?? [];
  namespaces.forEach((n, i) => {
    const bad = checkDns1123Label(n);
    if (bad) issues.push({ path: `${path}.namespaces[${i}]`, message: bad });
  });
  const names = readStringList(map['receivers'], childPath(path, 'receivers'), issues) ?? [];
  if (names.length === 0)
    issues.push({ path: childPath(path, 'receivers'), message: 'is required: receiver names' });
  names.forEach((n, i) => {
    if (!receivers.has(n))
      issues.push({ path: `${path}.receivers[${i}]`, message: `"${n}" is no receiver of this policy` });
  });
  if (issues.length > before) return undefined;
  return { events, severity, ...(clusters ? { clusters } : {}), namespaces, receivers: names };
}
