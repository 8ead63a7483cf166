// What is live in the member cluster, read once per pass and kind: the objects carrying this
// agent's ownership marker (one labelled list per kind: their resourceVersion feeds the skip
// decision, their status health), and, only for desired objects not found
// there, the metadata of what else exists under that name (one metadata-only list per kind and
// namespace), to tell "absent" from "exists but not ours". A kind the agent may not list across
// namespaces (a tenant agent: check-permissions.ts) is listed namespace by namespace, in the
// namespaces the pass touches (a Namespace read by name), and not watched (its drift is found by
// the next resync).
//
// A kind whose objects the last report saw in place (`metadataFirst`) is first listed by
// metadata only (`metadataOf`): an object at the resourceVersion the report judged needs nothing
// more (find-unchanged.ts); the others are then read whole (`readWhole`: by name when few, else
// one whole list of the kind), and only then does `ours` serve the kind. So a pass with nothing
// new reads metadata only, and what the apply sees of an object is always all of it.
import { clusterLabel } from '../../core/apply-plan/agent-keys.js';
import { kindKeyOf } from '../../core/apply-plan/plan-prune.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import { refKey, type ObjectRef } from '../../core/model/object-ref.js';
import { mapConcurrent } from '../../adapters/map-concurrent.js';
import type { ClusterApi } from './cluster-api.js';

type KindRef = Pick<ObjectRef, 'apiVersion' | 'kind'>;
type Listing = { type: 'ok'; byKey: Map<string, KubeObject> } | { type: 'error'; message: string };

/** At most this many objects of a kind are read whole by name; more, and the kind is listed whole. */
const byNameLimit = 20;

function isNamespace(kind: KindRef): boolean {
  return kind.apiVersion === 'v1' && kind.kind === 'Namespace';
}

/** Returns the refKey of a live object listed as `kind`. */
export function liveKey(kind: KindRef, object: KubeObject): string {
  return refKey({
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name,
  });
}

/** Returns a listing, or why it failed, as data. */
function settle(list: Promise<Map<string, KubeObject>>): Promise<Listing> {
  return list.then(
    (byKey): Listing => ({ type: 'ok', byKey }),
    (error: Error): Listing => ({ type: 'error', message: error.message }),
  );
}

/** The pass's view of the live objects; every list is made at most once per pass. */
export class LiveIndex {
  private readonly ourLists = new Map<string, Promise<Listing>>();
  private readonly otherLists = new Map<string, Promise<Map<string, KubeObject>>>();
  private readonly kinds = new Map<string, KindRef>();
  private readonly metadataLists = new Map<string, Promise<Listing>>();

  constructor(
    private readonly client: ClusterApi,
    private readonly cluster: string,
    /** group/Kind → the namespaces to list it in, one by one, instead of across namespaces. */
    private readonly listScope: ReadonlyMap<string, readonly string[]> = new Map(),
    /** group/Kind of the kinds to list by metadata first (Namespaces are always listed whole). */
    private readonly metadataFirst: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * Returns this agent's live objects of a kind by refKey, or why they could not be listed:
   * whole, except, after readWhole, the objects it was not asked for (their metadata).
   */
  ours(kind: KindRef): Promise<Listing> {
    const key = kindKeyOf(kind);
    let listing = this.ourLists.get(key);
    if (!listing) {
      this.kinds.set(key, { apiVersion: kind.apiVersion, kind: kind.kind });
      listing = settle(this.listOurs(kind, false));
      this.ourLists.set(key, listing);
    }
    return listing;
  }

  /** Returns the metadata of this agent's objects of a kind listed metadata first, undefined for other kinds. */
  metadataOf(kind: KindRef): Promise<Listing> | undefined {
    const key = kindKeyOf(kind);
    if (!this.metadataFirst.has(key) || isNamespace(kind) || this.ourLists.has(key)) return undefined;
    let listing = this.metadataLists.get(key);
    if (!listing) {
      listing = settle(this.listOurs(kind, true));
      this.metadataLists.set(key, listing);
    }
    return listing;
  }

  /**
   * After metadataOf: reads whole the objects of `refs` the metadata listing holds, by name when
   * few, else with one whole list of the kind, and serves the result as `ours`. An object found
   * no longer ours is left out (the apply then looks at what exists under its name).
   */
  readWhole(kind: KindRef, listed: ReadonlyMap<string, KubeObject>, refs: readonly ObjectRef[]): void {
    const key = kindKeyOf(kind);
    this.kinds.set(key, { apiVersion: kind.apiVersion, kind: kind.kind });
    const whole =
      refs.length <= byNameLimit
        ? this.readByName(refs).then(
            (found) => {
              const byKey = new Map(listed);
              for (const ref of refs) {
                const live = found.get(refKey(ref));
                if (live) byKey.set(refKey(ref), live);
                else byKey.delete(refKey(ref));
              }
              return byKey;
            },
            () => this.listOurs(kind, false),
          )
        : this.listOurs(kind, false);
    this.ourLists.set(key, settle(whole));
  }

  /** Reads objects by name; returns the ones still ours, by refKey. */
  private async readByName(refs: readonly ObjectRef[]): Promise<Map<string, KubeObject>> {
    const found = new Map<string, KubeObject>();
    await mapConcurrent(refs, 8, async (ref) => {
      const live = await this.client.get(ref);
      if (live?.metadata.labels?.[clusterLabel] === this.cluster) found.set(refKey(ref), live);
    });
    return found;
  }

  /** Lists this agent's objects of a kind, across namespaces or in the namespaces of its scope. */
  private async listOurs(kind: KindRef, metadataOnly: boolean): Promise<Map<string, KubeObject>> {
    const labelSelector = `${clusterLabel}=${this.cluster}`;
    const scope = this.listScope.get(kindKeyOf(kind));
    const results = scope
      ? await Promise.all(scope.map((namespace) => this.listIn(kind, namespace, labelSelector, metadataOnly)))
      : [await this.client.list(kind, { labelSelector, ...(metadataOnly ? { metadataOnly } : {}) })];
    return new Map(results.flatMap(({ items }) => items.map((o) => [liveKey(kind, o), o] as const)));
  }

  /** Returns the metadata of whatever exists under an object's name, or undefined; throws when it cannot be read. */
  async other(ref: ObjectRef): Promise<KubeObject | undefined> {
    // A Namespace the agent may only read by name (a tenant agent's own namespaces).
    if (isNamespace(ref) && this.listScope.has(kindKeyOf(ref))) return this.client.get(ref);
    const key = `${kindKeyOf(ref)}/${ref.namespace}`;
    let list = this.otherLists.get(key);
    if (!list) {
      list = this.client
        .list(ref, { metadataOnly: true, ...(ref.namespace ? { namespace: ref.namespace } : {}) })
        .then(({ items }) => new Map(items.map((o) => [liveKey(ref, o), o])));
      this.otherLists.set(key, list);
    }
    return (await list).get(refKey(ref));
  }

  /** Lists a kind's objects in one namespace; a Namespace, which cannot be listed so, is read by name. */
  private async listIn(
    kind: KindRef,
    namespace: string,
    labelSelector: string,
    metadataOnly: boolean,
  ): Promise<{ items: KubeObject[] }> {
    if (!isNamespace(kind))
      return this.client.list(kind, { labelSelector, namespace, ...(metadataOnly ? { metadataOnly } : {}) });
    const live = await this.client.get({
      apiVersion: 'v1',
      kind: 'Namespace',
      namespace: '',
      name: namespace,
    });
    return { items: live?.metadata.labels?.[clusterLabel] === this.cluster ? [live] : [] };
  }

  /** Forgets what was read of a kind (after CRDs change what it is). */
  forget(kind: KindRef): void {
    this.ourLists.delete(kindKeyOf(kind));
  }

  /** Returns the `group/Kind` of every kind listed successfully so far. */
  async listedKinds(): Promise<Set<string>> {
    const listed = new Set<string>();
    for (const [key, listing] of this.ourLists) if ((await listing).type === 'ok') listed.add(key);
    return listed;
  }

  /** Returns every kind listed successfully so far (what the drift watches follow). */
  async watchableKinds(): Promise<KindRef[]> {
    const listed = await this.listedKinds();
    return [...this.kinds]
      .filter(([key]) => listed.has(key) && !this.listScope.has(key))
      .map(([, kind]) => kind);
  }
}
