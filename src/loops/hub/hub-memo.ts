// The hub's persisted memo: what a running hub keeps between passes (hub-pass-cache.ts), kept
// on disk after each pass that moved refs, so a restarted hub costs what changed instead of a
// full pass (docs/performance.md#a-restart-that-costs-what-changed).
//
// What it keeps is the pass cache itself, as one graph (graph-codec.ts), so that the identities
// the render memo reuses by are kept too: the load memo (what each source file gave the last
// load), the render memo, the outputs the cluster branches hold (each branch's rendered texts are
// rebuilt from them and the kept blob id of each distinct text), the recorded bindings, and the
// facts keyed by git object ids (binding record blob → previous binding, tree → files, commit →
// tree and message, source blob → text).
//
// Why reusing it is never wrong: the restarted hub loads the fleet with the kept load memo, which
// hands back the kept template, policy and cluster objects only for files whose text is the same
// as the kept text (load-fleet.ts), so the render memo's identity checks reuse exactly what a warm
// hub would; every other entry is keyed by content or by a git object id. The file itself counts
// only when it is whole (checksum), of this version, and the refs are where its pass left them
// (hub-memo-file.ts); otherwise it is ignored with one log line and the pass is a full one.
import { hashObject } from '../../adapters/git/hash-object.js';
import { listRefs } from '../../adapters/git/list-refs.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { bindingsRef, clusterRefPrefix } from '../../core/publish/hub-refs.js';
import type { Logger } from '../runtime/logger.js';
import type { MemoMap } from '../runtime/memo-map.js';
import { GraphCodecError } from './graph-codec.js';
import { decodeGraph } from './graph-decode.js';
import { encodeGraph } from './graph-encode.js';
import { createHubPassCache, type HubPassCache, type RenderedText } from './hub-pass-cache.js';
import { hubMemoPath, hubMemoVersion, readHubMemoFile, writeHubMemoFile } from './hub-memo-file.js';

/** The parts of the pass cache the file keeps. */
interface KeptCache {
  loadMemo: HubPassCache['loadMemo'];
  renderMemo: HubPassCache['renderMemo'];
  recordTexts: HubPassCache['recordTexts'];
  branches: HubPassCache['branches'];
  /** Text → its blob id, for every text the branches hold. */
  textOids: Map<string, string>;
  records: EntriesOf<HubPassCache['records']>;
  treeFiles: EntriesOf<HubPassCache['treeFiles']>;
  commits: EntriesOf<HubPassCache['commits']>;
  sourceTexts: EntriesOf<HubPassCache['sourceTexts']>;
  reports: EntriesOf<HubPassCache['reports']>;
}

type EntriesOf<M> = M extends MemoMap<infer K, infer V> ? [K, V][] : never;

const memoMaps = ['records', 'treeFiles', 'commits', 'sourceTexts', 'reports'] as const;

/** Returns the refs the memo is checked against: the bindings branch and every cluster branch. */
export async function hubRefsOf(gitdir: string, prefix: string): Promise<Record<string, string>> {
  const refs: Record<string, string> = {};
  const bindings = bindingsRef(prefix);
  const head = await readRef(gitdir, bindings);
  if (head !== null) refs[bindings] = head;
  for (const [name, oid] of await listRefs(gitdir, clusterRefPrefix(prefix))) refs[name] = oid;
  return refs;
}

/**
 * Fills a fresh pass cache from the memo file when it matches the repository; returns whether
 * it did. A memo that does not match is ignored with one log line. Never throws.
 */
export async function restoreHubMemo(
  cache: HubPassCache,
  opts: { gitdir: string; log: Logger },
): Promise<boolean> {
  const read = await readHubMemoFile(opts.gitdir, (prefix) => hubRefsOf(opts.gitdir, prefix));
  if (read.type === 'absent') return false;
  const ignore = (reason: string): false => {
    opts.log.info(`${hubMemoPath(opts.gitdir)}: ignored (${reason}); this pass renders everything`);
    return false;
  };
  if (read.type === 'ignored') return ignore(read.reason);
  try {
    fillCache(cache, keptCacheOf(decodeGraph(read.body)));
  } catch (error) {
    // Nothing half-filled stays: the cache is a fresh one again.
    Object.assign(cache, createHubPassCache(), { memoRead: true });
    delete cache.loadMemo;
    delete cache.renderMemo;
    return ignore((error as Error).message);
  }
  opts.log.info(`${hubMemoPath(opts.gitdir)}: used; this pass renders what changed`);
  return true;
}

// Puts the kept parts into the cache (each branch's rendered texts rebuilt from the outputs).
function fillCache(cache: HubPassCache, kept: KeptCache): void {
  const renderedTexts = renderedTextsOf(kept.branches, kept.textOids);
  if (kept.loadMemo) cache.loadMemo = kept.loadMemo;
  if (kept.renderMemo) cache.renderMemo = kept.renderMemo;
  cache.recordTexts = kept.recordTexts;
  cache.branches = kept.branches;
  cache.renderedTexts = renderedTexts;
  for (const name of memoMaps) {
    const map = cache[name] as MemoMap<unknown, unknown>;
    for (const [key, value] of kept[name]) map.set(key, value);
  }
}

// The decoded root as the kept cache, after checking the kind of each part: the checksum and
// the version say the file is one this hub wrote, so the parts' contents are not checked again.
function keptCacheOf(root: unknown): KeptCache {
  if (root === null || typeof root !== 'object') throw new GraphCodecError('NotDecodable', 'not a cache');
  const kept = root as KeptCache;
  for (const name of ['recordTexts', 'branches', 'textOids'] as const)
    if (!(kept[name] instanceof Map)) throw new GraphCodecError('NotDecodable', `${name} is not a map`);
  for (const name of memoMaps)
    if (!Array.isArray(kept[name])) throw new GraphCodecError('NotDecodable', `${name} is not a list`);
  return kept;
}

/**
 * Above this many rendered files over all cluster branches the memo is not written: it grows
 * with the files, and the hub's loop waits while it is written. Format 2, measured with
 * bench/hub-pass.js: at 2,000 × 50 (100,000 files) about 18 MiB, half a second to write; at
 * 2,000 × 200 (400,000 files, the bound) 1.0–1.4 s to write and 0.75 s to read back, a restarted
 * pass 1.25 s against a first pass of 9.2 s (3 December). Past the bound a restart renders
 * everything rather than the loop stalling for seconds per pass.
 */
const maxKeptFiles = 400_000;
const toldTooLarge = new WeakSet<HubPassCache>();

/**
 * Writes the pass cache to the memo file, for the refs the pass left under the prefix. A
 * failure is a warning: the pass's result never depends on it. Never throws.
 */
export async function saveHubMemo(
  cache: HubPassCache,
  opts: { gitdir: string; prefix: string; log: Logger; refs?: Record<string, string> },
): Promise<void> {
  delete cache.memoPending;
  const files = [...cache.branches.values()].reduce((n, b) => n + b.output.files.size, 0);
  if (files > maxKeptFiles) {
    if (!toldTooLarge.has(cache)) {
      toldTooLarge.add(cache);
      opts.log.info(
        `${hubMemoPath(opts.gitdir)}: not written: the branches hold ${files} rendered files, more than ${maxKeptFiles}; a restart renders everything`,
      );
    }
    return;
  }
  try {
    const refs = opts.refs ?? (await hubRefsOf(opts.gitdir, opts.prefix));
    const body = encodeGraph(keptCacheFrom(cache, refs, opts.prefix), { omit: isOlderOutputLink });
    await writeHubMemoFile(opts.gitdir, { version: hubMemoVersion, prefix: opts.prefix, refs }, body);
  } catch (error) {
    opts.log.warn(
      `${hubMemoPath(opts.gitdir)}: not written (${(error as Error).message}); a restart renders everything`,
    );
  }
}

// What the file keeps of the cache. The tree files and the binding records are those of the
// refs the pass left only (a pass also reads the trees it replaced), and each distinct text's
// blob id is kept once, to rebuild each branch's rendered texts without hashing them again.
function keptCacheFrom(cache: HubPassCache, refs: Record<string, string>, prefix: string): KeptCache {
  const trees = new Map(cache.treeFiles.held());
  const commits = new Map(cache.commits.held());
  const headTrees = new Set(Object.values(refs).map((head) => commits.get(head)?.tree));
  const treeFiles = [...trees].filter(([tree]) => headTrees.has(tree));
  const bindings = refs[bindingsRef(prefix)];
  const recordFiles = bindings ? trees.get(commits.get(bindings)?.tree ?? '') : undefined;
  const recordOids = recordFiles ? new Set(recordFiles.values()) : undefined;
  const records = [...cache.records.held()].filter(([oid]) => !recordOids || recordOids.has(oid));
  const textOids = new Map<string, string>();
  // Only the cluster branches' texts: the bindings branch's record texts are not kept (their
  // records are, withoutTexts), and were a sixth of the file.
  for (const [ref, texts] of cache.renderedTexts)
    if (cache.branches.has(ref)) for (const { text, oid } of texts.values()) textOids.set(text, oid);
  return {
    loadMemo: cache.loadMemo,
    renderMemo: cache.renderMemo,
    recordTexts: withoutTexts(cache.recordTexts),
    branches: cache.branches,
    textOids,
    records,
    treeFiles,
    commits: [...commits],
    sourceTexts: [...cache.sourceTexts.held()],
    reports: [...cache.reports.held()],
  };
}

// The recorded bindings without their JSON and record text: a binding that did not change is
// the kept object (the record is kept by identity); one that did is written again, and an empty
// JSON never equals its JSON (plan-bindings-branch.ts). The two texts are most of their size.
function withoutTexts(recorded: HubPassCache['recordTexts']): HubPassCache['recordTexts'] {
  const kept: HubPassCache['recordTexts'] = new Map();
  for (const [key, r] of recorded) kept.set(key, { ...r, json: '', text: '' });
  return kept;
}

/**
 * Returns each kept branch's texts with their blob ids, made from the kept outputs and the kept
 * id of each distinct text (a text it has no id for is hashed: an id is a function of its text).
 */
function renderedTextsOf(
  branches: HubPassCache['branches'],
  textOids: Map<string, string>,
): HubPassCache['renderedTexts'] {
  const byBranch: HubPassCache['renderedTexts'] = new Map();
  for (const [ref, { output }] of branches) {
    const texts = new Map<string, RenderedText>();
    for (const [path, text] of output.files) {
      let oid = textOids.get(text);
      if (oid === undefined) textOids.set(text, (oid = hashObject('blob', Buffer.from(text, 'utf8'))));
      texts.set(path, { text, oid });
    }
    byBranch.set(ref, texts);
  }
  return byBranch;
}

// A cluster output's `derived` link names the output of the pass before (ClusterOutput): the
// next pass compares its own outputs with the ones kept, never with theirs, so the older outputs
// are not kept (they would double the file).
function isOlderOutputLink(owner: object, key: string): boolean {
  if (key !== 'derived') return false;
  const output = owner as { files?: unknown; held?: unknown };
  return output.files instanceof Map && output.held instanceof Map;
}

/**
 * Writes the memo a pass with `persistMemo: 'deferred'` left pending, naming the refs that pass
 * left (a ref moved since makes the memo stale, so it is then ignored); does nothing when none
 * is pending. Never throws.
 */
export async function saveDeferredHubMemo(
  cache: HubPassCache,
  opts: { gitdir: string; log: Logger },
): Promise<void> {
  const pending = cache.memoPending;
  if (pending) await saveHubMemo(cache, { ...opts, prefix: pending.prefix, refs: pending.refs });
}
