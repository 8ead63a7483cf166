// A member cluster registration (cluster.karmada.io/v1alpha1 Cluster), checked as Karmada's
// ValidateClusterSpec (pkg/apis/cluster/validation/validation.go):
//
// | field            | rule                                                                          |
// |------------------|-------------------------------------------------------------------------------|
// | metadata.name    | DNS-1123 label of at most 48 characters (checked with the other names)        |
// | metadata.labels  | keys qualified names, values label values                                     |
// | spec.provider    | a label value                                                                 |
// | spec.region      | a label value                                                                 |
// | spec.zone/zones  | label values; `zone` (legacy) and `zones` cannot co-exist; `zone` is folded into `zones` |
// | spec.taints      | key a qualified name, value a label value, effect NoSchedule or NoExecute, unique by key+effect (lifted.ValidateClusterTaints) |
// | spec.syncMode    | Push or Pull                                                                  |
// | annotation gitfleet.io/signing-key | gitfleet's: one OpenSSH ed25519 public key line (model/cluster-signing-key.ts) |
//
// Karmada requires `syncMode` and has no default. gitfleet's members are driven by an agent
// reading its branch, which is Karmada's Pull mode, so an absent `syncMode` reads as Pull.
//
// This reads only the fields gitfleet acts on. Every other field Karmada's Cluster has (apiEndpoint,
// secretRef, resourceModels, status, …) is accepted and ignored; a field Karmada does not have is
// refused by the strict-field pass (schema/cluster.ts, schema/check-document-fields.ts).
import {
  checkAgeRecipient,
  clusterAgeRecipientAnnotation,
  clusterAgeRecipientOf,
} from '../model/cluster-age-recipient.js';
import { quoteText } from '../model/quote-text.js';
import { clusterSigningKeyAnnotation, clusterSigningKeyOf } from '../model/cluster-signing-key.js';
import type { Cluster, Taint, TaintEffect } from '../model/cluster.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  childPath,
  compact,
  itemPath,
  readEnum,
  readList,
  readMap,
  readRequiredEnum,
  readRequiredString,
  readString,
  readStringList,
  readStringMap,
  type Issues,
} from './field-reader.js';
import { checkLabelValue, checkQualifiedName } from './name-rules.js';

// Karmada accepts only these two for clusters (validateClusterTaintEffect, pkg/util/lifted/validateclustertaints.go).
const CLUSTER_TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'NoExecute'];

/** Returns the typed cluster, or the list of problems found in it. */
export function parseCluster(doc: {
  object: Record<string, unknown>;
  name: string;
  source: SourceLocation;
}): { ok: true; cluster: Cluster } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const metadata = readMap(doc.object['metadata'], 'metadata', issues) ?? {};
  const labels = readStringMap(metadata['labels'], 'metadata.labels', issues) ?? {};
  for (const [key, value] of Object.entries(labels))
    checkLabel(key, value, itemPath('metadata.labels', key), issues);
  const spec = readMap(doc.object['spec'], 'spec', issues) ?? {};
  const cluster = compact<Cluster>({
    name: doc.name,
    labels,
    provider: readLabelValue(spec['provider'], 'spec.provider', issues),
    region: readLabelValue(spec['region'], 'spec.region', issues),
    zones: readZones(spec, issues),
    taints: readList(spec['taints'], 'spec.taints', issues, (v, p) => parseTaint(v, p, issues)) ?? [],
    syncMode: readEnum(spec['syncMode'], ['Push', 'Pull'] as const, 'spec.syncMode', issues) ?? 'Pull',
    signingKey: readSigningKey(doc.object, issues),
    ageRecipient: readAgeRecipient(doc.object, issues),
    source: doc.source,
  });
  checkUniqueTaints(cluster.taints, issues);
  return issues.length === 0 ? { ok: true, cluster } : { ok: false, issues };
}

// The agent's key: one ed25519 key line (the only SSH key type gitfleet verifies), checked for
// its shape here; the hub parses the key itself when it verifies.
function readSigningKey(object: Record<string, unknown>, issues: Issues): string | undefined {
  const line = clusterSigningKeyOf(object);
  if (line === undefined) return undefined;
  if (/^ssh-ed25519 [A-Za-z0-9+/]+={0,2}( [^\n]*)?$/.test(line)) return line;
  // The value is never quoted: it may be a private key pasted by mistake.
  const type = /^((?:ssh|ecdsa|sk)-[a-z0-9@.-]{1,40})\s/.exec(line)?.[1];
  const what = line.includes('PRIVATE KEY')
    ? 'a private key, which never belongs in the fleet repository'
    : type !== undefined
      ? `a ${type} key`
      : 'not a key line';
  issues.push({
    path: itemPath('metadata.annotations', clusterSigningKeyAnnotation),
    message: `not an OpenSSH ssh-ed25519 public key line (${what})`,
  });
  return undefined;
}

function readAgeRecipient(object: Record<string, unknown>, issues: Issues): string | undefined {
  const value = clusterAgeRecipientOf(object);
  if (value === undefined) return undefined;
  const bad = checkAgeRecipient(value);
  if (bad === undefined) return value;
  issues.push({ path: itemPath('metadata.annotations', clusterAgeRecipientAnnotation), message: bad });
  return undefined;
}

function readZones(spec: Record<string, unknown>, issues: Issues): string[] {
  const zone = readLabelValue(spec['zone'], 'spec.zone', issues);
  const zones = readStringList(spec['zones'], 'spec.zones', issues) ?? [];
  zones.forEach((z, i) => {
    const bad = checkLabelValue(z);
    if (bad) issues.push({ path: itemPath('spec.zones', i), message: `${quoteText(z)}: ${bad}` });
  });
  if (zone !== undefined && zones.length > 0) {
    issues.push({ path: 'spec', message: 'zone and zones cannot co-exist' });
  }
  return zones.length === 0 && zone !== undefined ? [zone] : zones;
}

function readLabelValue(value: unknown, path: string, issues: Issues): string | undefined {
  const text = readString(value, path, issues);
  if (text === undefined || text === '') return undefined;
  const bad = checkLabelValue(text);
  if (bad) issues.push({ path, message: `${quoteText(text)}: ${bad}` });
  return text;
}

function checkLabel(key: string, value: string, path: string, issues: Issues): void {
  const badKey = checkQualifiedName(key);
  if (badKey) issues.push({ path, message: `key ${quoteText(key)}: ${badKey}` });
  const badValue = checkLabelValue(value);
  if (badValue) issues.push({ path, message: `value ${quoteText(value)}: ${badValue}` });
}

function parseTaint(value: unknown, path: string, issues: Issues): Taint | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const key = readRequiredString(map['key'], childPath(path, 'key'), issues);
  const bad = key === undefined ? undefined : checkQualifiedName(key);
  if (bad) issues.push({ path: childPath(path, 'key'), message: `${quoteText(key ?? '')}: ${bad}` });
  const taintValue = readLabelValue(map['value'], childPath(path, 'value'), issues);
  const effect = readRequiredEnum(map['effect'], CLUSTER_TAINT_EFFECTS, childPath(path, 'effect'), issues);
  if (key === undefined || effect === undefined) return undefined;
  return compact<Taint>({ key, value: taintValue, effect });
}

function checkUniqueTaints(taints: Taint[], issues: Issues): void {
  const seen = new Set<string>();
  taints.forEach((t, i) => {
    const id = `${t.key}\u0000${t.effect}`;
    if (seen.has(id)) {
      issues.push({
        path: itemPath('spec.taints', i),
        message: 'taints must be unique by key and effect pair',
      });
    }
    seen.add(id);
  });
}
