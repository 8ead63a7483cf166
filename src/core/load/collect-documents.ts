// Turns each document into its typed model (template, cluster, policy) and keeps identities
// unique, collecting every error instead of stopping at the first.
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import { isMap } from '../model/kube-object.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import { effectiveNamespace } from './default-namespace.js';
import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import { locationLabel, type SourceLocation } from '../model/source-location.js';
import type { Issues } from './field-reader.js';
import type { LoadError, LoadErrorCode } from './load-error.js';
import { parseCluster } from './parse-cluster.js';
import { parseOverridePolicy } from './parse-override-policy.js';
import { parsePropagationPolicy } from './parse-propagation-policy.js';
import type { RawDocument } from './parse-yaml-stream.js';
import { readEnvelope, type Envelope } from './read-envelope.js';

/** Everything collected so far. */
export interface Collection {
  templates: Template[];
  clusters: Cluster[];
  propagationPolicies: PropagationPolicy[];
  overridePolicies: OverridePolicy[];
  errors: LoadError[];
  /** refKey → where it was first seen. */
  identities: Map<string, string>;
  /** `file#index` of the FleetConfigs findFleetConfig already read and reported on. */
  fleetConfigsSeen: ReadonlySet<string>;
  /** Where the FleetConfig in use is, for messages. */
  fleetConfigAt: string | undefined;
}

/** Where one object sits: a document, or an item of a `kind: List` document. */
interface Place {
  source: SourceLocation;
  item?: number;
}

/** Returns an empty collection. */
export function newCollection(fleetConfigsSeen: ReadonlySet<string>, fleetConfigAt?: string): Collection {
  return {
    templates: [],
    clusters: [],
    propagationPolicies: [],
    overridePolicies: [],
    errors: [],
    identities: new Map(),
    fleetConfigsSeen,
    fleetConfigAt,
  };
}

/** Adds one document of a file to the collection (a v1 List adds each of its items). */
export function collectDocument(c: Collection, file: string, doc: RawDocument): void {
  const source: SourceLocation = { file, index: doc.index, line: doc.line };
  const v = doc.value;
  if (!isMap(v) || v['apiVersion'] !== 'v1' || v['kind'] !== 'List') {
    collectObject(c, { source }, v);
    return;
  }
  if (!Array.isArray(v['items'])) {
    fail(c, { source }, 'MissingField', 'List: items: is required and must be a list');
    return;
  }
  v['items'].forEach((item: unknown, i: number) => collectObject(c, { source, item: i }, item));
}

function collectObject(c: Collection, at: Place, value: unknown): void {
  const read = readEnvelope(value);
  if (!read.ok) {
    const subject = rawSubject(value);
    for (const p of read.problems) fail(c, at, p.code, subject + p.message);
    return;
  }
  const e = read.envelope;
  switch (e.role) {
    case 'FleetConfig':
      return collectFleetConfig(c, at);
    case 'Cluster':
      return collectCluster(c, at, e);
    case 'PropagationPolicy':
    case 'ClusterPropagationPolicy':
    case 'OverridePolicy':
    case 'ClusterOverridePolicy':
      return collectPolicy(c, at, e, e.role);
    case 'Template': {
      const namespace = effectiveNamespace(e.apiVersion, e.kind, e.namespace);
      if (namespace !== e.namespace) e.object.metadata.namespace = namespace;
      const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace, name: e.name };
      if (claimIdentity(c, at, ref))
        c.templates.push({ ref, key: refKey(ref), object: e.object, source: at.source });
    }
  }
}

function collectFleetConfig(c: Collection, at: Place): void {
  if (at.item === undefined && c.fleetConfigsSeen.has(`${at.source.file}#${at.source.index}`)) return;
  const first = c.fleetConfigAt === undefined ? '' : ` (the one in use is at ${c.fleetConfigAt})`;
  fail(
    c,
    at,
    'TooManyFleetConfigs',
    `FleetConfig: a repo has one FleetConfig, at the top level of a file${first}`,
  );
}

function collectCluster(c: Collection, at: Place, e: Envelope): void {
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace: '', name: e.name };
  const parsed = parseCluster({ object: e.object, name: e.name, source: at.source });
  if (!parsed.ok) return reportIssues(c, at, 'InvalidCluster', `Cluster/${e.name}`, parsed.issues);
  if (claimIdentity(c, at, ref)) c.clusters.push(parsed.cluster);
}

// A PropagationPolicy or OverridePolicy without metadata.namespace lives in `default`, where
// `kubectl apply` would create it; the cluster-wide kinds have no namespace.
function collectPolicy(c: Collection, at: Place, e: Envelope, role: PolicyRole): void {
  const namespaced = role === 'PropagationPolicy' || role === 'OverridePolicy';
  const namespace = namespaced ? e.namespace || 'default' : '';
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace, name: e.name };
  const doc = { object: e.object, namespace, name: e.name, source: at.source };
  const subject = namespace ? `${role}/${namespace}/${e.name}` : `${role}/${e.name}`;
  if (role === 'PropagationPolicy' || role === 'ClusterPropagationPolicy') {
    const parsed = parsePropagationPolicy({ ...doc, kind: role });
    if (!parsed.ok) return reportIssues(c, at, 'InvalidPolicy', subject, parsed.issues);
    if (claimIdentity(c, at, ref)) c.propagationPolicies.push(parsed.policy);
  } else {
    const parsed = parseOverridePolicy({ ...doc, kind: role });
    if (!parsed.ok) return reportIssues(c, at, 'InvalidPolicy', subject, parsed.issues);
    if (claimIdentity(c, at, ref)) c.overridePolicies.push(parsed.policy);
  }
}

type PolicyRole =
  'PropagationPolicy' | 'ClusterPropagationPolicy' | 'OverridePolicy' | 'ClusterOverridePolicy';

// Identity is group, kind, namespace and name (the version is not part of it), for every kind.
function claimIdentity(c: Collection, at: Place, ref: ObjectRef): boolean {
  const key = refKey(ref);
  const here = placeLabel(at);
  const first = c.identities.get(key);
  if (first === undefined) {
    c.identities.set(key, here);
    return true;
  }
  const subject = ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
  fail(c, at, 'DuplicateIdentity', `${subject}: defined twice, at ${first} and at ${here}`);
  return false;
}

function reportIssues(c: Collection, at: Place, code: LoadErrorCode, subject: string, issues: Issues): void {
  for (const issue of issues) fail(c, at, code, `${subject}: ${issue.path}: ${issue.message}`);
}

function fail(c: Collection, at: Place, code: LoadErrorCode, message: string): void {
  const prefix = at.item === undefined ? '' : `items[${at.item}]: `;
  c.errors.push({ code, ...at.source, message: prefix + message });
}

function placeLabel(at: Place): string {
  return locationLabel(at.source) + (at.item === undefined ? '' : ` items[${at.item}]`);
}

// The subject of a document whose envelope is broken, as far as it can be told: `Kind/name: `.
function rawSubject(value: unknown): string {
  if (!isMap(value) || typeof value['kind'] !== 'string') return '';
  const metadata = value['metadata'];
  const name = isMap(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : '';
  return name ? `${value['kind']}/${name}: ` : `${value['kind']}: `;
}
