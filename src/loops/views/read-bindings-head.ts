// What the bindings branch's head says, as the status views read it (read-fleet-status.ts): its
// commit and trailers (the source commit, the monitor's verdicts, the refused deletions), one
// view per binding record with its eviction tasks, the rollout records, the clusters' kept
// taints and the FederatedResourceQuota records. Each file is parsed once per blob id (the read's memo).
import type { BindingView } from '../../core/publish/binding-record.js';
import { parseBindingView } from '../../core/publish/binding-record.js';
import { parseTrailers, sourceCommitTrailer, sourceRefTrailer } from '../../core/publish/commit-trailers.js';
import { deletionRefusedTrailer, parseRefusalTrailers } from '../../core/publish/refusal-trailers.js';
import { clusterJudgedTrailer } from '../../core/failover/failover-trailers.js';
import { clusterTaintsDir, readRecord } from '../../core/failover/cluster-taints.js';
import type { TimedTaint } from '../../core/model/failover.js';
import { refLabel } from '../../core/model/object-ref.js';
import { rolloutViewsOf } from '../../core/rollout/rollout-view.js';
import { rolloutDir } from '../../core/rollout/rollout-record.js';
import { parseQuotaStatusRecord, quotaStatusDir } from '../../core/quota/quota-status.js';
import { evictionTasksOfRecord } from '../../core/status/eviction-task-view.js';
import type { FleetStatusData, TemplateEvictionTask } from '../../core/status/fleet-status-data.js';
import type { BindingFile, CommitRead } from './fleet-status-memo.js';
import { listYamlFiles, readCommit, readText, type FleetRead } from './read-fleet-objects.js';

/** The bindings head read: its commit and trailers, and what the status data takes from it. */
export interface BindingsHead {
  commit: CommitRead;
  trailers: ReadonlyMap<string, readonly string[]>;
  /** The source commit it was rendered from (Gitfleet-Source-Commit), when it names one. */
  sourceCommit: string | undefined;
  data: Pick<
    FleetStatusData,
    | 'bindingsHead'
    | 'bindingsTime'
    | 'sourceCommit'
    | 'sourceRef'
    | 'sourceSubject'
    | 'bindings'
    | 'judged'
    | 'evictions'
    | 'rollouts'
    | 'hubRefusals'
    | 'keptTaints'
    | 'quotas'
  >;
}

/** Returns what the bindings branch's head (commit `head`) holds for the status views. */
export function readBindingsHead(read: FleetRead, head: string): BindingsHead {
  const commit = readCommit(read, head);
  const trailers = parseTrailers(commit.message);
  const sourceCommit = trailers.get(sourceCommitTrailer)?.[0];
  const branch = readBindingsTree(read, commit.tree);
  const bindings = branch.files.map((f) => f.view).filter((b): b is BindingView => b !== undefined);
  const data: BindingsHead['data'] = {
    bindingsHead: head,
    ...(commit.time !== undefined ? { bindingsTime: commit.time } : {}),
    ...(sourceCommit !== undefined ? { sourceCommit } : {}),
    ...sourceNames(commit.message, trailers.get(sourceRefTrailer)?.[0]),
    bindings,
    judged: judgedOf(trailers.get(clusterJudgedTrailer) ?? []),
    evictions: evictionsOf(branch.files),
    rollouts: rolloutViewsOf(branch.rolloutTexts),
    hubRefusals: parseRefusalTrailers(trailers.get(deletionRefusedTrailer) ?? []),
    keptTaints: keptTaintsOf(branch.taintTexts),
    quotas: [...branch.quotaTexts.values()].flatMap((t) => parseQuotaStatusRecord(t) ?? []),
  };
  return { commit, trailers, sourceCommit, data };
}

/** Returns each cluster's kept taints from the records `.gitfleet/failover/clusters/<cluster>.yaml`. */
function keptTaintsOf(texts: ReadonlyMap<string, string>): Map<string, TimedTaint[]> {
  const kept = new Map<string, TimedTaint[]>();
  for (const [path, text] of texts) {
    const taints = readRecord(text);
    if (taints.length > 0) kept.set(path.slice(clusterTaintsDir.length, -'.yaml'.length), taints);
  }
  return kept;
}

/**
 * Returns what each `.yaml` file of the bindings branch holds (parsed once per blob id), in
 * tree order, and the texts of the rollout records and of the clusters' kept taints.
 */
function readBindingsTree(
  read: FleetRead,
  tree: string,
): {
  files: BindingFile[];
  rolloutTexts: Map<string, string>;
  taintTexts: Map<string, string>;
  quotaTexts: Map<string, string>;
} {
  const files: BindingFile[] = [];
  const rolloutTexts = new Map<string, string>();
  const taintTexts = new Map<string, string>();
  const quotaTexts = new Map<string, string>();
  for (const { path, oid } of listYamlFiles(read, tree)) {
    let file = read.memo.bindings.get(oid);
    const kept = path.startsWith(rolloutDir)
      ? rolloutTexts
      : path.startsWith(clusterTaintsDir)
        ? taintTexts
        : path.startsWith(quotaStatusDir)
          ? quotaTexts
          : undefined;
    if (file === undefined || kept) {
      const text = readText(read, oid);
      kept?.set(path, text);
      file ??= bindingFileOf(text);
      read.memo.bindings.set(oid, file);
    }
    files.push(file);
  }
  return { files, rolloutTexts, taintTexts, quotaTexts };
}

function bindingFileOf(text: string): BindingFile {
  const view = parseBindingView(text);
  const evictions = view && text.includes('gracefulEvictionTasks') ? evictionTasksOfRecord(text) : [];
  return { view, evictions };
}

/** Returns `member2=Unknown` trailer values as cluster → verdict. */
function judgedOf(values: readonly string[]): Map<string, string> {
  const judged = new Map<string, string>();
  for (const value of values) {
    const at = value.indexOf('=');
    if (at > 0) judged.set(value.slice(0, at).trim(), value.slice(at + 1).trim());
  }
  return judged;
}

function evictionsOf(files: readonly BindingFile[]): TemplateEvictionTask[] {
  const evictions: TemplateEvictionTask[] = [];
  for (const { view, evictions: tasks } of files) {
    if (!view) continue;
    for (const task of tasks) evictions.push({ template: refLabel(view.resource), ...task });
  }
  return evictions.sort((a, b) => (a.template < b.template ? -1 : a.template > b.template ? 1 : 0));
}

/**
 * The source commit's ref and subject as the bindings head names them: its Gitfleet-Source-Ref
 * trailer and its subject, `render <sha7>: <source subject>` (a mirror holds no source branch to
 * read them from).
 */
function sourceNames(
  message: string,
  ref: string | undefined,
): { sourceRef?: string; sourceSubject?: string } {
  const subject = /^render [0-9a-f]{7,}: (.*)$/.exec(message.split('\n', 1)[0]!)?.[1];
  return {
    ...(ref !== undefined ? { sourceRef: ref } : {}),
    ...(subject !== undefined ? { sourceSubject: subject } : {}),
  };
}
