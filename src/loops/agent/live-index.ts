// What is live in the member cluster, read once per pass and kind: the objects carrying this
// agent's ownership marker (one labelled list per kind, full objects: their resourceVersion
// and status feed the skip decision and health), and, only for desired objects not found
// there, the metadata of what else exists under that name (one metadata-only list per kind and
// namespace), to tell "absent" from "exists but not ours". A kind the agent may not list across
// namespaces (a tenant agent: check-permissions.ts) is listed namespace by namespace, in the
// namespaces the pass touches (a Namespace read by name), and not watched (its drift is found by
// the next resync).
import { clusterLabel } from '../../core/apply-plan/agent-keys.js';
import { kindKeyOf } from '../../core/apply-plan/plan-prune.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import { refKey, type ObjectRef } from '../../core/model/object-ref.js';
import type { ClusterApi } from './cluster-api.js';

type KindRef = Pick<ObjectRef, 'apiVersion' | 'kind'>;
type Listing = { type: 'ok'; byKey: Map<string, KubeObject> } | { type: 'error'; message: string };

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

/** The pass's view of the live objects; every list is made at most once per pass. */
export class LiveIndex {
  private readonly ourLists = new Map<string, Promise<Listing>>();
  private readonly otherLists = new Map<string, Promise<Map<string, KubeObject>>>();
  private readonly kinds = new Map<string, KindRef>();

  constructor(
    private readonly client: ClusterApi,
    private readonly cluster: string,
    /** group/Kind → the namespaces to list it in, one by one, instead of across namespaces. */
    private readonly listScope: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {}

  /** Returns this agent's live objects of a kind by refKey, or why they could not be listed. */
  ours(kind: KindRef): Promise<Listing> {
    const key = kindKeyOf(kind);
    let listing = this.ourLists.get(key);
    if (!listing) {
      this.kinds.set(key, { apiVersion: kind.apiVersion, kind: kind.kind });
      const labelSelector = `${clusterLabel}=${this.cluster}`;
      const scope = this.listScope.get(key);
      const lists = scope
        ? Promise.all(scope.map((namespace) => this.listIn(kind, namespace, labelSelector)))
        : this.client.list(kind, { labelSelector }).then((all) => [all]);
      listing = lists.then(
        (results): Listing => ({
          type: 'ok',
          byKey: new Map(results.flatMap(({ items }) => items.map((o) => [liveKey(kind, o), o] as const))),
        }),
        (error: Error): Listing => ({ type: 'error', message: error.message }),
      );
      this.ourLists.set(key, listing);
    }
    return listing;
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
  ): Promise<{ items: KubeObject[] }> {
    if (!isNamespace(kind)) return this.client.list(kind, { labelSelector, namespace });
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
