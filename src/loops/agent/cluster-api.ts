// The member cluster as the agent sees it: the few verbs a pass, the inventory store and the
// drift watches use, and nothing else. The agent takes this interface, not the kube adapter's
// class, so its decisions (apply order, skip-unchanged, prune, fight backoff, Git outages) are
// tested on an in-memory fake (test/loops/agent) and its I/O on real API servers (test/kube).
// kube-cluster-api.ts is the implementation over the kube adapter.
//
// The contract every implementation keeps, as the API server does:
// - writes (apply, mergePatch, delete) return a refusal as data, one object at a time; no
//   answer at all is a refusal with code 0;
// - reads (get, list, collectionVersion, watch, served, refreshDiscovery) throw KubeApiError,
//   with `refusal.code` 0 when the server did not answer (the pass reports the cluster
//   unreachable instead of failing);
// - list gives each item its apiVersion and kind, whatever the server leaves out;
// - reviewAccess (optional: without it the agent asks nothing and the writes tell) answers
//   every question, 'unknown' when it could not find out, and never throws.
import type { ClusterStatus } from '../../core/model/cluster.js';
import type { KubeObject } from '../../core/model/kube-object.js';
import type { ApiRefusal } from '../../core/model/api-refusal.js';
import type { ObjectRef } from '../../core/model/object-ref.js';
import type { ResourceInfo } from '../../adapters/kube/discovery.js';
import type { AccessAnswer, AccessQuestion } from '../../adapters/kube/access-review.js';
import type { ApplyOptions, ListOptions, ListResult, WriteResult } from '../../adapters/kube/kube-client.js';
import type { RequestCounts } from '../../adapters/kube/kube-http.js';
import type { WatchEnd, WatchOptions } from '../../adapters/kube/watch-objects.js';

export type {
  AccessAnswer,
  AccessQuestion,
  ApplyOptions,
  ListOptions,
  ListResult,
  RequestCounts,
  WatchEnd,
  WatchOptions,
  WriteResult,
};

/** A kind at one version, e.g. `{ apiVersion: 'apps/v1', kind: 'Deployment' }`. */
export type KindRef = Pick<ObjectRef, 'apiVersion' | 'kind'>;

/** A resource the cluster serves, as far as the agent needs it (which kinds to list, and where). */
export type ServedResource = Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'namespaced' | 'verbs'>;

/**
 * What a delete found: 'deleted' (with the object as the server answered when it is still
 * there, held by a finalizer), 'gone' (it was not there), or the refusal.
 */
export type DeleteResult =
  { type: 'deleted'; live?: KubeObject } | { type: 'gone' } | { type: 'refused'; refusal: ApiRefusal };

/** A member cluster, as the agent uses it. */
export interface ClusterApi {
  /** Returns the live object, or undefined when it does not exist. */
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  /** Returns every object of a kind the options select, and the collection's resourceVersion. */
  list(kind: KindRef, opts?: ListOptions): Promise<ListResult>;
  /** Server-side applies the manifest under the agent's field manager; returns what is stored (or would be, on a dry run). */
  apply(manifest: KubeObject, opts: ApplyOptions): Promise<WriteResult>;
  /** Merge-patches an object (the agent removes its marker with it); returns what is stored. */
  mergePatch(ref: ObjectRef, patch: unknown): Promise<WriteResult>;
  /** Deletes an object with background propagation (`as`: impersonating that user); returns what the delete found. */
  delete(ref: ObjectRef, opts?: { as?: string }): Promise<DeleteResult>;
  /** Returns the resourceVersion of a kind's collection now, where a watch can start. */
  collectionVersion(kind: KindRef, opts: { labelSelector?: string }): Promise<string>;
  /** Watches a kind from a resourceVersion until the server ends the stream or the signal aborts; returns how it ended. */
  watch(kind: KindRef, opts: WatchOptions): Promise<WatchEnd>;
  /** Returns every resource the cluster serves, as last discovered. */
  served(): Promise<readonly ServedResource[]>;
  /** Discovers the served resources again (after CRDs were applied). */
  refreshDiscovery(): Promise<void>;
  /** Returns the cluster's status (readiness, version, API enablements, capacity); an unreachable cluster is NotReady, not thrown. */
  readFacts(): Promise<ClusterStatus>;
  /** Answers whether the agent's credentials allow each verb, in order (check-permissions.ts). */
  reviewAccess?(questions: readonly AccessQuestion[]): Promise<AccessAnswer[]>;
  /** Returns the requests made so far (total, mutating, dry-run), for the pass's report. */
  requestCounts(): RequestCounts;
}
