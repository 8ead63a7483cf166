// A member cluster in memory, behind the agent's own cluster interface (cluster-api.ts), for
// the agent's unit tests: an object store keyed by apiVersion/kind/namespace/name that answers
// as an API server would where the agent's decisions depend on it, and records every call.
//
// | what the agent relies on                   | what the fake does                                     |
// |--------------------------------------------|--------------------------------------------------------|
// | a namespaced object needs its Namespace    | apply refuses 404 NotFound while the Namespace is absent |
// | a custom resource needs its CRD served     | apply refuses 404 until the CRD is stored; a stored CRD is Established at once |
// | server-side apply merges into what is live | maps merge key by key, lists are replaced; another writer's fields stay |
// | an unchanged write changes nothing         | the resourceVersion moves only when the content changed |
// | a dry run stores nothing                   | it returns the merge, counted as a dry run              |
// | finalizers hold a deletion                 | delete sets deletionTimestamp and answers with the object; removing the last finalizer removes it |
// | deleting a Namespace takes what is in it   | its objects go with it                                  |
// | watch events arrive on their own         | after the write that caused them has answered (on the next turn of the event loop) |
// | a cluster that does not answer             | `down`: reads throw KubeApiError with code 0, writes return a code-0 refusal |
// | RBAC                                       | `allows` set: access reviews answer by it; a list, apply or delete it does not allow is refused 403; a Namespace's own requests are authorized in it |
//
// Not modelled: field-manager conflicts (the agent forces its own objects' fields), admission,
// defaulting, generation, list paging.
import { KubeApiError } from '../../../src/adapters/kube/kube-error.js';
import type { ApiRefusal } from '../../../src/core/model/api-refusal.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import { deepCopy, isMap, type KubeObject } from '../../../src/core/model/kube-object.js';
import { groupOf, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type {
  AccessAnswer,
  AccessQuestion,
  ApplyOptions,
  ClusterApi,
  DeleteResult,
  KindRef,
  ListOptions,
  ListResult,
  RequestCounts,
  ServedResource,
  WatchEnd,
  WatchOptions,
  WriteResult,
} from '../../../src/loops/agent/cluster-api.js';

/** One call the agent made, e.g. `{ verb: 'apply', key: 'v1/ConfigMap/shop/web', dryRun: false }`. */
export interface FakeCall {
  verb: keyof ClusterApi;
  /** apiVersion/kind/namespace/name of the object, or apiVersion/kind of a collection. */
  key?: string;
  dryRun?: boolean;
  force?: boolean;
  /** A list that asked for metadata only. */
  metadataOnly?: boolean;
}

interface Watcher {
  kind: KindRef;
  labelSelector: string | undefined;
  onEvent: WatchOptions['onEvent'];
}

const builtIns: ServedResource[] = [
  { group: '', version: 'v1', kind: 'Namespace', namespaced: false },
  { group: '', version: 'v1', kind: 'ConfigMap', namespaced: true },
  { group: '', version: 'v1', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', kind: 'Service', namespaced: true },
  { group: '', version: 'v1', kind: 'ServiceAccount', namespaced: true },
  { group: 'apps', version: 'v1', kind: 'Deployment', namespaced: true },
  { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', namespaced: true },
  { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', namespaced: false },
].map((r) => ({ ...r, verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] }));

/** Returns the namespace the API server authorizes a request on the object in: a Namespace's is its name. */
function authorizedIn(ref: ObjectRef): string {
  return ref.kind === 'Namespace' ? ref.name : ref.namespace;
}

/** Returns the store key of an object: apiVersion/kind/namespace/name. */
export function storeKey(ref: ObjectRef): string {
  return `${ref.apiVersion}/${ref.kind}/${ref.namespace}/${ref.name}`;
}

/** An in-memory member cluster; `calls` holds every request, in order. */
export class FakeCluster implements ClusterApi {
  readonly calls: FakeCall[] = [];
  /** While true, nothing answers. */
  down = false;
  /** The next this many watch requests fail as if the connection broke. */
  failingWatches = 0;
  /**
   * RBAC, when set: whether the agent may do `verb` on a kind in a namespace ('' = across
   * namespaces, or a cluster-scoped kind). Unset: everything is allowed and reviewAccess is
   * answered without asking it.
   */
  allows: ((verb: AccessQuestion['verb'], kind: KindRef, namespace: string) => boolean) | undefined;
  /** The access reviews asked so far (not in `calls`: they are questions, not requests of the pass's work). */
  readonly reviews: AccessQuestion[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private readonly watchers = new Set<Watcher>();
  private version = 100;

  /** Returns the non-dry-run writes so far as `verb key` lines (apply, mergePatch, delete). */
  mutations(): string[] {
    return this.calls
      .filter((c) => (c.verb === 'apply' && !c.dryRun) || c.verb === 'mergePatch' || c.verb === 'delete')
      .map((c) => `${c.verb} ${c.key}`);
  }

  /** Returns a copy of the stored object, or undefined, without recording a call. */
  peek(ref: ObjectRef): KubeObject | undefined {
    const stored = this.objects.get(storeKey(ref));
    return stored && deepCopy(stored);
  }

  /** Returns the store keys of every object, sorted, without recording a call. */
  keys(): string[] {
    return [...this.objects.keys()].sort();
  }

  /** Stores an object as someone else wrote it (no call recorded; watchers are told). */
  put(object: KubeObject): KubeObject {
    const ref = refOf(object);
    const before = this.objects.get(storeKey(ref));
    return this.store(ref, deepCopy(object), before);
  }

  /** Changes a stored object as another writer would (kubectl edit, a controller); returns it. */
  edit(ref: ObjectRef, change: (object: KubeObject) => void): KubeObject {
    const before = this.objects.get(storeKey(ref));
    if (!before) throw new Error(`${storeKey(ref)}: not in the fake cluster`);
    const after = deepCopy(before);
    change(after);
    return this.store(ref, after, before);
  }

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    this.record({ verb: 'get', key: storeKey(ref) });
    this.answerOrThrow(ref.kind);
    return Promise.resolve(this.peek(ref));
  }

  list(kind: KindRef, opts: ListOptions = {}): Promise<ListResult> {
    this.record({
      verb: 'list',
      key: `${kind.apiVersion}/${kind.kind}`,
      ...(opts.metadataOnly ? { metadataOnly: true } : {}),
    });
    this.answerOrThrow(kind.kind);
    if (!this.servedKind(kind))
      throw new KubeApiError(kind.kind, {
        code: 404,
        message: `no resource serves ${kind.apiVersion} ${kind.kind}`,
      });
    const denied = this.forbidden('list', kind, opts.namespace ?? '');
    if (denied) throw new KubeApiError(kind.kind, denied);
    const items = [...this.objects.values()]
      .filter((o) => o.apiVersion === kind.apiVersion && o.kind === kind.kind)
      .filter((o) => opts.namespace === undefined || o.metadata.namespace === opts.namespace)
      .filter((o) => matches(o, opts.labelSelector))
      .sort((a, b) => storeKey(refOf(a)).localeCompare(storeKey(refOf(b))))
      .map((o) =>
        opts.metadataOnly
          ? { apiVersion: o.apiVersion, kind: o.kind, metadata: deepCopy(o.metadata) }
          : deepCopy(o),
      );
    return Promise.resolve({ items, resourceVersion: String(this.version) });
  }

  apply(manifest: KubeObject, opts: ApplyOptions): Promise<WriteResult> {
    const ref = refOf(manifest);
    this.record({ verb: 'apply', key: storeKey(ref), dryRun: opts.dryRun === true, force: opts.force });
    const refused = this.refusalOf(ref) ?? this.forbidden('patch', ref, authorizedIn(ref));
    if (refused) return Promise.resolve({ type: 'refused', refusal: refused });
    const before = this.objects.get(storeKey(ref));
    const merged = mergeInto(before ? deepCopy(before) : {}, deepCopy(manifest)) as KubeObject;
    if (isCrd(ref)) merged['status'] = { conditions: [{ type: 'Established', status: 'True' }] };
    if (opts.dryRun) {
      const same = before !== undefined && sameContent(before, merged);
      merged.metadata.resourceVersion = same ? before.metadata.resourceVersion : String(this.version + 1);
      return Promise.resolve({ type: 'ok', live: merged });
    }
    return Promise.resolve({ type: 'ok', live: deepCopy(this.store(ref, merged, before)) });
  }

  mergePatch(ref: ObjectRef, patch: unknown): Promise<WriteResult> {
    this.record({ verb: 'mergePatch', key: storeKey(ref) });
    if (this.down) return Promise.resolve({ type: 'refused', refusal: noAnswer });
    const before = this.objects.get(storeKey(ref));
    if (!before) return Promise.resolve({ type: 'refused', refusal: notFound(ref) });
    const after = mergeInto(deepCopy(before), deepCopy(patch), { nullDeletes: true }) as KubeObject;
    return Promise.resolve({ type: 'ok', live: deepCopy(this.store(ref, after, before)) });
  }

  delete(ref: ObjectRef): Promise<DeleteResult> {
    this.record({ verb: 'delete', key: storeKey(ref) });
    if (this.down) return Promise.resolve({ type: 'refused', refusal: noAnswer });
    const denied = this.forbidden('delete', ref, authorizedIn(ref));
    if (denied) return Promise.resolve({ type: 'refused', refusal: denied });
    const before = this.objects.get(storeKey(ref));
    if (!before) return Promise.resolve({ type: 'gone' });
    const finalizers = before.metadata['finalizers'];
    if (Array.isArray(finalizers) && finalizers.length > 0) {
      const held = this.edit(ref, (o) => {
        o.metadata['deletionTimestamp'] ??= '2026-01-01T00:00:00Z';
      });
      return Promise.resolve({ type: 'deleted', live: deepCopy(held) });
    }
    this.remove(before);
    if (ref.kind === 'Namespace') {
      for (const o of [...this.objects.values()]) if (o.metadata.namespace === ref.name) this.remove(o);
    }
    return Promise.resolve({ type: 'deleted' });
  }

  collectionVersion(kind: KindRef): Promise<string> {
    this.record({ verb: 'collectionVersion', key: `${kind.apiVersion}/${kind.kind}` });
    this.answerOrThrow(kind.kind);
    return Promise.resolve(String(this.version));
  }

  watch(kind: KindRef, opts: WatchOptions): Promise<WatchEnd> {
    this.record({ verb: 'watch', key: `${kind.apiVersion}/${kind.kind}` });
    this.answerOrThrow(kind.kind);
    if (this.failingWatches > 0) {
      this.failingWatches--;
      return Promise.reject(new KubeApiError(`watch ${kind.kind}`, noAnswer));
    }
    const watcher: Watcher = { kind, labelSelector: opts.labelSelector, onEvent: opts.onEvent };
    this.watchers.add(watcher);
    return new Promise((resolve) => {
      const end = (): void => {
        this.watchers.delete(watcher);
        resolve({ type: 'ended', resourceVersion: String(this.version) });
      };
      if (opts.signal.aborted) end();
      else opts.signal.addEventListener('abort', end, { once: true });
    });
  }

  /** Resolves once every watch event of the writes so far has been delivered. */
  deliverEvents(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  /** Returns how many watches are open now. */
  openWatches(): number {
    return this.watchers.size;
  }

  served(): Promise<readonly ServedResource[]> {
    this.record({ verb: 'served' });
    this.answerOrThrow('discovery');
    return Promise.resolve(this.servedResources());
  }

  refreshDiscovery(): Promise<void> {
    this.record({ verb: 'refreshDiscovery' });
    this.answerOrThrow('discovery');
    return Promise.resolve();
  }

  readFacts(): Promise<ClusterStatus> {
    this.record({ verb: 'readFacts' });
    if (this.down) {
      return Promise.resolve({
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'ClusterNotReachable',
            message: 'cluster is not reachable',
          },
        ],
      });
    }
    return Promise.resolve({
      kubernetesVersion: 'v1.31.0-fake',
      conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady', message: 'the fake cluster' }],
    });
  }

  reviewAccess(questions: readonly AccessQuestion[]): Promise<AccessAnswer[]> {
    this.reviews.push(...questions);
    return Promise.resolve(
      questions.map((q): AccessAnswer => {
        const served = this.servedKind(q.kind);
        if (!served) return { type: 'unknown', message: `no ${q.kind.kind} served` };
        const group = groupOf(q.kind.apiVersion);
        const plural = `${q.kind.kind.toLowerCase()}s`;
        const resource = group ? `${plural}.${group}` : plural;
        const namespace = served.namespaced || q.kind.kind === 'Namespace' ? q.namespace : '';
        const allowed = this.allows?.(q.verb, q.kind, namespace) ?? true;
        return { type: allowed ? 'allowed' : 'denied', resource, namespaced: served.namespaced };
      }),
    );
  }

  requestCounts(): RequestCounts {
    const counted = this.calls.filter((c) => c.verb !== 'readFacts');
    return {
      total: counted.length,
      mutating: this.mutations().length,
      dryRun: counted.filter((c) => c.verb === 'apply' && c.dryRun).length,
    };
  }

  private record(call: FakeCall): void {
    this.calls.push(call);
  }

  private answerOrThrow(subject: string): void {
    if (this.down) throw new KubeApiError(subject, noAnswer);
  }

  /** Returns the 403 an API server answers when `allows` says no, or undefined. */
  private forbidden(verb: AccessQuestion['verb'], kind: KindRef, namespace: string): ApiRefusal | undefined {
    if (!this.allows) return undefined;
    if (this.allows(verb, kind, namespace)) return undefined;
    return {
      code: 403,
      reason: 'Forbidden',
      message: `${kind.kind} is forbidden: the fake agent cannot ${verb} it${namespace ? ` in the namespace "${namespace}"` : ''}`,
    };
  }

  /** Returns why the server would refuse to write the object, or undefined. */
  private refusalOf(ref: ObjectRef): ApiRefusal | undefined {
    if (this.down) return noAnswer;
    const kind = this.servedKind(ref);
    if (!kind)
      return {
        code: 404,
        reason: 'NotFound',
        message: `the cluster serves no ${ref.kind} in ${ref.apiVersion}`,
      };
    if (kind.namespaced && !this.objects.has(storeKey(namespaceRef(ref.namespace))))
      return { code: 404, reason: 'NotFound', message: `namespaces "${ref.namespace}" not found` };
    return undefined;
  }

  private servedKind(kind: KindRef): ServedResource | undefined {
    const group = groupOf(kind.apiVersion);
    const version = kind.apiVersion.slice(group ? group.length + 1 : 0);
    return this.servedResources().find(
      (r) => r.group === group && r.version === version && r.kind === kind.kind,
    );
  }

  /** The built-in kinds and one per version of every stored CRD. */
  private servedResources(): ServedResource[] {
    const custom: ServedResource[] = [];
    for (const o of this.objects.values()) {
      if (!isCrd(refOf(o))) continue;
      const spec = o['spec'] as {
        group: string;
        scope: string;
        names: { kind: string };
        versions: { name: string; served: boolean }[];
      };
      for (const v of spec.versions.filter((v) => v.served)) {
        custom.push({
          group: spec.group,
          version: v.name,
          kind: spec.names.kind,
          namespaced: spec.scope === 'Namespaced',
          verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
        });
      }
    }
    return [...builtIns, ...custom];
  }

  /** Stores `after` (with a new resourceVersion when its content changed) and tells the watchers. */
  private store(ref: ObjectRef, after: KubeObject, before: KubeObject | undefined): KubeObject {
    if (before && sameContent(before, after)) return before;
    const finalizers = after.metadata['finalizers'];
    if (after.metadata['deletionTimestamp'] && !(Array.isArray(finalizers) && finalizers.length > 0)) {
      // Being deleted and no longer held: the server removes it.
      this.remove(after);
      return after;
    }
    this.version++;
    after.metadata.resourceVersion = String(this.version);
    this.objects.set(storeKey(ref), after);
    this.tell(before ? 'MODIFIED' : 'ADDED', after);
    return after;
  }

  private remove(object: KubeObject): void {
    this.objects.delete(storeKey(refOf(object)));
    this.version++;
    this.tell('DELETED', object);
  }

  private tell(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void {
    for (const w of this.watchers) {
      if (w.kind.apiVersion !== object.apiVersion || w.kind.kind !== object.kind) continue;
      if (!matches(object, w.labelSelector)) continue;
      // After the write's own answer, as events come over their own connection.
      const event = { type, object: deepCopy(object) };
      setImmediate(() => {
        if (this.watchers.has(w)) w.onEvent(event);
      });
    }
  }
}

const noAnswer: ApiRefusal = { code: 0, message: 'connect ECONNREFUSED (the fake cluster is down)' };

function notFound(ref: ObjectRef): ApiRefusal {
  return { code: 404, reason: 'NotFound', message: `${ref.kind.toLowerCase()} "${ref.name}" not found` };
}

function namespaceRef(name: string): ObjectRef {
  return { apiVersion: 'v1', kind: 'Namespace', namespace: '', name };
}

function isCrd(ref: KindRef): boolean {
  return ref.kind === 'CustomResourceDefinition' && groupOf(ref.apiVersion) === 'apiextensions.k8s.io';
}

function refOf(o: KubeObject): ObjectRef {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name,
  };
}

/** Returns whether an object's labels satisfy an equality selector (`a=b,c=d`). */
function matches(object: KubeObject, selector: string | undefined): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [key, value] = term.split('=');
    if (value === undefined) return key !== undefined && object.metadata.labels?.[key] !== undefined;
    return key !== undefined && object.metadata.labels?.[key] === value;
  });
}

/** Merges `patch` into `target` (maps key by key, anything else replaced); `nullDeletes` as a JSON merge patch. */
function mergeInto(target: unknown, patch: unknown, opts: { nullDeletes?: boolean } = {}): unknown {
  if (!isMap(patch) || !isMap(target)) return patch;
  for (const [key, value] of Object.entries(patch)) {
    if (value === null && opts.nullDeletes) delete target[key];
    else target[key] = mergeInto(target[key], value, opts);
  }
  return target;
}

/** Returns whether two versions of an object hold the same content (the resourceVersion aside). */
function sameContent(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const { resourceVersion: _rv, ...metadata } = o.metadata;
    return JSON.stringify(sortKeys({ ...o, metadata }));
  };
  return strip(a) === strip(b);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isMap(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k])]),
  );
}
