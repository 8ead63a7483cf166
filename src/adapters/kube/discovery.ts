// API discovery: which resource serves a kind, whether it is namespaced, and every API the
// cluster serves (its API enablements, as Karmada reports them). Read in two requests with
// aggregated discovery (`/api` and `/apis` as APIGroupDiscoveryList, Kubernetes ≥ 1.30), or
// group by group from older servers. Cached until `refresh` (after CRDs are applied, or when
// a kind is not found).
import type { ApiEnablement } from '../../core/model/cluster.js';
import { groupOf } from '../../core/model/object-ref.js';
import type { KubeHttp } from './kube-http.js';
import { KubeApiError, refusalOf } from './kube-error.js';

/** One served resource. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  /** The plural resource name used in paths, e.g. `deployments`. */
  resource: string;
  namespaced: boolean;
  verbs: readonly string[];
}

const aggregatedAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;q=0.9';

interface AggregatedList {
  kind?: string;
  items?: {
    metadata?: { name?: string };
    versions?: {
      version: string;
      resources?: { resource: string; responseKind?: { kind?: string }; scope?: string; verbs?: string[] }[];
    }[];
  }[];
}

interface LegacyResourceList {
  resources?: { name: string; kind: string; namespaced: boolean; verbs?: string[] }[];
}

/** The resources a cluster serves. */
export class Discovery {
  private byGvk = new Map<string, ResourceInfo>();
  private all: ResourceInfo[] = [];
  private loaded = false;

  constructor(private readonly http: KubeHttp) {}

  /** Reads every served resource again. */
  async refresh(): Promise<void> {
    const core = await this.get('/api');
    const groups = await this.get('/apis');
    const resources =
      isAggregated(core) && isAggregated(groups)
        ? [...fromAggregated(core as AggregatedList), ...fromAggregated(groups as AggregatedList)]
        : await this.legacy(groups);
    this.all = resources;
    this.byGvk = new Map(resources.map((r) => [gvkKey(r.group, r.version, r.kind), r]));
    this.loaded = true;
  }

  /** Returns the resource serving a kind at an apiVersion, refreshing once on a miss; undefined when not served. */
  async resourceFor(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    if (!this.loaded) await this.refresh();
    const key = gvkKey(groupOf(apiVersion), versionOf(apiVersion), kind);
    const hit = this.byGvk.get(key);
    if (hit) return hit;
    await this.refresh();
    return this.byGvk.get(key);
  }

  /** Returns every resource the cluster serves (each version of a group separately). */
  async served(): Promise<readonly ResourceInfo[]> {
    if (!this.loaded) await this.refresh();
    return this.all;
  }

  /** Returns the cluster's API enablements, sorted as Karmada sorts them (by group version, then resource). */
  async enablements(): Promise<ApiEnablement[]> {
    if (!this.loaded) await this.refresh();
    const byGv = new Map<string, { name: string; kind: string; namespaced: boolean }[]>();
    for (const r of this.all) {
      const gv = r.group ? `${r.group}/${r.version}` : r.version;
      if (!byGv.has(gv)) byGv.set(gv, []);
      byGv.get(gv)!.push({ name: r.resource, kind: r.kind, namespaced: r.namespaced });
    }
    return [...byGv.keys()].sort().map((groupVersion) => ({
      groupVersion,
      resources: byGv.get(groupVersion)!.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }));
  }

  private async get(path: string, accept = aggregatedAccept): Promise<unknown> {
    const answer = await this.http.request({ method: 'GET', path, accept });
    if (answer.status !== 200) throw new KubeApiError(`GET ${path}`, refusalOf(answer.status, answer.body));
    return JSON.parse(answer.body) as unknown;
  }

  /** Older servers: /api/v1 and every version of every group, one request each. */
  private async legacy(groups: unknown): Promise<ResourceInfo[]> {
    const list = groups as { groups?: { name: string; versions?: { version: string }[] }[] };
    const paths = [{ group: '', version: 'v1', path: '/api/v1' }];
    for (const g of list.groups ?? []) {
      for (const v of g.versions ?? [])
        paths.push({ group: g.name, version: v.version, path: `/apis/${g.name}/${v.version}` });
    }
    const lists = await Promise.all(
      paths.map(async (p) => ({
        ...p,
        list: (await this.get(p.path, 'application/json')) as LegacyResourceList,
      })),
    );
    return lists.flatMap(({ group, version, list }) =>
      (list.resources ?? [])
        .filter((r) => !r.name.includes('/'))
        .map((r) => ({
          group,
          version,
          kind: r.kind,
          resource: r.name,
          namespaced: r.namespaced,
          verbs: r.verbs ?? [],
        })),
    );
  }
}

function isAggregated(body: unknown): boolean {
  return (body as { kind?: string }).kind === 'APIGroupDiscoveryList';
}

function fromAggregated(list: AggregatedList): ResourceInfo[] {
  const out: ResourceInfo[] = [];
  for (const item of list.items ?? []) {
    const group = item.metadata?.name ?? '';
    for (const v of item.versions ?? []) {
      for (const r of v.resources ?? []) {
        const kind = r.responseKind?.kind;
        if (!kind) continue;
        out.push({
          group,
          version: v.version,
          kind,
          resource: r.resource,
          namespaced: r.scope === 'Namespaced',
          verbs: r.verbs ?? [],
        });
      }
    }
  }
  return out;
}

function versionOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
}

function gvkKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

/** Returns the collection path of a resource, in a namespace when it is namespaced. */
export function collectionPath(info: ResourceInfo, namespace?: string): string {
  const root = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  const ns = info.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${ns}/${info.resource}`;
}

/** Returns the path of one object of a resource. */
export function objectPath(info: ResourceInfo, namespace: string, name: string): string {
  return `${collectionPath(info, namespace)}/${encodeURIComponent(name)}`;
}
