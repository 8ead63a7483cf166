// A Tenant (gitfleet.io/v1alpha1, cluster-scoped): a team's part of the fleet (docs/tenants.md).
//
// | field                               | rule                                                        |
// |-------------------------------------|-------------------------------------------------------------|
// | spec.paths                          | required, at least one path pattern (path-patterns.ts), not the whole repository |
// | spec.namespaces                     | DNS-1123 labels; none: the tenant may create no namespaced object |
// | spec.clusters.names                 | cluster names                                               |
// | spec.clusters.selector              | a label selector over the Cluster registrations' labels     |
// | spec.allowedKinds / deniedKinds     | lists of {group, kind}; `*` matches any; `group: ""` is the core group |
// | spec.clusterScoped                  | boolean, default false                                      |
// | spec.impersonate.serviceAccount     | `NAMESPACE/NAME`                                            |
import type { GroupKind, Tenant } from '../model/tenant.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  childPath,
  compact,
  readBool,
  readList,
  readMap,
  readRequiredString,
  readString,
  readStringList,
  type Issues,
} from './field-reader.js';
import { checkDns1123Label, checkDns1123Subdomain } from './name-rules.js';
import { parseLabelSelector } from './parse-selectors.js';

/** Returns the typed tenant, or the list of problems found in it. */
export function parseTenant(doc: {
  object: Record<string, unknown>;
  name: string;
  source: SourceLocation;
}): { ok: true; tenant: Tenant } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues);
  if (spec === undefined) return { ok: false, issues: [...issues, { path: 'spec', message: 'is required' }] };
  const paths = readStringList(spec['paths'], 'spec.paths', issues) ?? [];
  if (paths.length === 0)
    issues.push({ path: 'spec.paths', message: 'is required and must have at least one path' });
  paths.forEach((p, i) => {
    if (p.replace(/^(\.\/|\/)+/, '').replace(/[*/]/g, '') === '')
      issues.push({
        path: `spec.paths[${i}]`,
        message: `"${p}" is the whole repository: a tenant owns a part of it`,
      });
  });
  const namespaces = readStringList(spec['namespaces'], 'spec.namespaces', issues) ?? [];
  namespaces.forEach((n, i) => {
    const bad = checkDns1123Label(n);
    if (bad) issues.push({ path: `spec.namespaces[${i}]`, message: bad });
  });
  const clusters = readClusters(spec['clusters'], issues);
  const allowed = readKinds(spec['allowedKinds'], 'spec.allowedKinds', issues);
  const deniedKinds = readKinds(spec['deniedKinds'], 'spec.deniedKinds', issues) ?? [];
  const clusterScoped = readBool(spec['clusterScoped'], 'spec.clusterScoped', issues) ?? false;
  const impersonate = readImpersonate(spec['impersonate'], issues);
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    tenant: {
      name: doc.name,
      paths,
      namespaces,
      clusters,
      ...(allowed ? { allowedKinds: allowed } : {}),
      deniedKinds,
      clusterScoped,
      ...(impersonate ? { impersonate } : {}),
      source: doc.source,
    },
  };
}

function readClusters(value: unknown, issues: Issues): Tenant['clusters'] {
  const map = readMap(value, 'spec.clusters', issues);
  const names = readStringList(map?.['names'], 'spec.clusters.names', issues) ?? [];
  const selector = parseLabelSelector(map?.['selector'], 'spec.clusters.selector', issues);
  return compact<Tenant['clusters']>({ names, selector });
}

function readKinds(value: unknown, path: string, issues: Issues): GroupKind[] | undefined {
  return readList(value, path, issues, (v, p) => {
    const item = readMap(v, p, issues);
    if (item === undefined) return undefined;
    const group = readString(item['group'], childPath(p, 'group'), issues) ?? '';
    const kind = readRequiredString(item['kind'], childPath(p, 'kind'), issues);
    return kind === undefined ? undefined : { group, kind };
  });
}

function readImpersonate(value: unknown, issues: Issues): Tenant['impersonate'] {
  const map = readMap(value, 'spec.impersonate', issues);
  if (map === undefined) return undefined;
  const path = 'spec.impersonate.serviceAccount';
  const text = readRequiredString(map['serviceAccount'], path, issues);
  if (text === undefined) return undefined;
  const [namespace, name, extra] = text.split('/');
  const bad =
    namespace === undefined || name === undefined || extra !== undefined
      ? 'must be NAMESPACE/NAME'
      : (checkDns1123Label(namespace) ?? checkDns1123Subdomain(name));
  if (bad) {
    issues.push({ path, message: `"${text}": ${bad}` });
    return undefined;
  }
  return { serviceAccount: { namespace: namespace!, name: name! } };
}
