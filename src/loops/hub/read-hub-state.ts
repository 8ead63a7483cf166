// What the hub's own branches say before a pass: which source commit it rendered last, the
// previous bindings (claims and placements, so stickiness survives restarts), and which
// cluster branches exist.
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { PreviousBinding } from '../../core/model/binding.js';
import { parseBindingRecord } from '../../core/publish/binding-record.js';
import { parseTrailers, sourceCommitTrailer } from '../../core/publish/commit-trailers.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { memoize } from '../runtime/memo-map.js';
import { bindingsRef, clusterRefPrefix } from '../../core/publish/hub-refs.js';
import { clusterCommitTrailer, parseClusterTrailers } from '../../core/publish/cluster-commit-trailers.js';
import { listRefs } from '../../adapters/git/list-refs.js';
import { readStatusHeads, statusCommitTrailer } from './read-status-branches.js';
import { clusterJudgedTrailer, wakeAtTrailer } from '../../core/failover/failover-trailers.js';
import {
  deletionRefusedTrailer,
  parseRefusalTrailers,
  type RefusedDeletion,
} from '../../core/publish/refusal-trailers.js';
import { renderHeldTrailer } from '../../core/publish/render-move.js';
import { renderLocationDir } from '../../core/model/render-repository.js';
import { readBlobText } from '../../adapters/git/read-typed-object.js';
import { readCommitFiles, readCommitInfo, type ReadContext } from './read-git-state.js';

export interface HubState {
  bindings: {
    ref: string;
    head: string | null;
    current: { tree: string | null; files: ReadonlyMap<string, string> };
    /**
     * Cluster → the render repository the head records its branch in
     * (`.gitfleet/render-repositories/<cluster>`, core/model/render-repository.ts); absent: the fleet repository.
     */
    locations: Map<string, string>;
    /** The source commit named by the head's Gitfleet-Source-Commit trailer. */
    lastSource: string | null;
    /** The status branch heads (`cluster=commit`) its Gitfleet-Status-Commit trailers name. */
    lastStatus: string[];
    /** Cluster → the commit the hub left on its branch (Gitfleet-Cluster-Commit); empty when none is recorded. */
    lastClusters: Map<string, string>;
    /** Gitfleet-Wake-At: when a failover decision falls due, or null. */
    wakeAt: string | null;
    /** Gitfleet-Cluster-Judged values (`cluster=Unknown`). */
    judged: string[];
    /** The cluster updates the guard refused in that pass (Gitfleet-Deletion-Refused): still pending. */
    refused: RefusedDeletion[];
    /** The clusters whose render repository held them in that pass (Gitfleet-Render-Held): still pending. */
    held: string[];
  };
  /** Cluster name → head of its agent's status branch. */
  statusHeads: Map<string, string>;
  /** Cluster name → where its status commit is read, when not in the fleet repository (status-repositories.ts). */
  statusReads?: ReadonlyMap<string, ReadContext>;
  /**
   * Set once the heads are judged (accept-status-heads.ts): what was said about the status heads
   * refused (`statusHeads` then holds the signed ones read in their place) or read unverified.
   */
  statusDiagnostics?: Diagnostic[];
  /** Cluster name → why its status repository cannot be read now: its status is unreadable, not NotReady. */
  statusUnreadable?: ReadonlyMap<string, string>;
  /** Cluster name → its branch's commit, for every cluster branch that exists. */
  clusterHeads: Map<string, string>;
  /**
   * Set when the bindings head is not a record the hub's keys signed (trust-hub-records.ts):
   * `bindings` then says what the newest signed record below it says (its `head` stays the
   * branch's, which the pass writes over), and this names the commit and why.
   */
  recordDiagnostics?: Diagnostic[];
}

/** What the head of a bindings branch says, read from the ref and the head commit only (no tree). */
export interface BindingsHead {
  ref: string;
  head: string | null;
  lastSource: string | null;
  lastStatus: string[];
  lastClusters: Map<string, string>;
  wakeAt: string | null;
  judged: string[];
  refused: RefusedDeletion[];
  held: string[];
}

/** Returns what the bindings branch under the prefix says of the last pass. */
export async function readBindingsHead(ctx: ReadContext, prefix: string): Promise<BindingsHead> {
  const ref = bindingsRef(prefix);
  return readBindingsAt(ctx, ref, await readRef(ctx.store.gitdir, ref));
}

/** Returns what a bindings commit says of its pass (`head`: the commit; null: none). */
export async function readBindingsAt(
  ctx: ReadContext,
  ref: string,
  head: string | null,
): Promise<BindingsHead> {
  const trailers = head
    ? parseTrailers((await readCommitInfo(ctx, head)).message)
    : new Map<string, string[]>();
  return {
    ref,
    head,
    lastSource: trailers.get(sourceCommitTrailer)?.at(-1) ?? null,
    lastStatus: trailers.get(statusCommitTrailer) ?? [],
    lastClusters: parseClusterTrailers(trailers.get(clusterCommitTrailer) ?? []),
    wakeAt: trailers.get(wakeAtTrailer)?.at(-1) ?? null,
    judged: trailers.get(clusterJudgedTrailer) ?? [],
    refused: parseRefusalTrailers(trailers.get(deletionRefusedTrailer) ?? []),
    held: trailers.get(renderHeldTrailer) ?? [],
  };
}

/** Returns cluster name → branch head for every cluster branch under the prefix. */
export async function readClusterHeads(ctx: ReadContext, prefix: string): Promise<Map<string, string>> {
  const clusterPrefix = clusterRefPrefix(prefix);
  const clusterHeads = new Map<string, string>();
  for (const [name, oid] of await listRefs(ctx.store.gitdir, clusterPrefix)) {
    clusterHeads.set(name.slice(clusterPrefix.length), oid);
  }
  return clusterHeads;
}

/** Returns the state of the hub's branches under the prefix. */
export async function readHubState(ctx: ReadContext, prefix: string): Promise<HubState> {
  const bindings = await readBindingsHead(ctx, prefix);
  const { current, locations } = await readBindingsFiles(ctx, bindings.head);
  const clusterHeads = await readClusterHeads(ctx, prefix);
  const statusHeads = await readStatusHeads(ctx, prefix);
  return { bindings: { ...bindings, current, locations }, clusterHeads, statusHeads };
}

/** Returns a bindings commit's files and the render locations they record. */
export async function readBindingsFiles(
  ctx: ReadContext,
  commit: string | null,
): Promise<Pick<HubState['bindings'], 'current' | 'locations'>> {
  const current = await readCommitFiles(ctx, commit);
  return { current, locations: await readLocations(ctx, current.files) };
}

/** Returns where the bindings branch's files record each cluster branch (cluster → URL or path). */
async function readLocations(
  ctx: ReadContext,
  files: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [path, oid] of files) {
    if (!path.startsWith(renderLocationDir)) continue;
    const text = (await readBlobText(ctx.store, oid, path)).trim();
    if (text !== '') out.set(path.slice(renderLocationDir.length), text);
  }
  return out;
}

const readBatch = 64;
const hubFilesDir = '.gitfleet/';

/** Returns the previous bindings held by the records of the bindings branch, by binding key. */
export async function readPreviousBindings(
  ctx: ReadContext,
  files: ReadonlyMap<string, string>,
): Promise<Map<string, PreviousBinding>> {
  // The hub's own files (failover, rollouts, render locations) hold no binding record.
  const oids = [...files].filter(([path]) => !path.startsWith(hubFilesDir)).map(([, oid]) => oid);
  const previous = new Map<string, PreviousBinding>();
  for (let i = 0; i < oids.length; i += readBatch) {
    const batch = oids.slice(i, i + readBatch);
    const parsed = await Promise.all(batch.map((oid) => readRecord(ctx, oid)));
    for (const record of parsed) if (record) previous.set(record.key, record);
  }
  return previous;
}

function readRecord(ctx: ReadContext, oid: string): Promise<PreviousBinding | null> {
  return memoize(ctx.cache.records, oid, async () => {
    return parseBindingRecord(await readBlobText(ctx.store, oid)) ?? null;
  });
}
