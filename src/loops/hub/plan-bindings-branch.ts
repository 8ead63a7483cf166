// The bindings branch: one ResourceBinding record per binding, at the object's path
// (`<namespace>/<Kind>[.<group>]/<name>.yaml`, `_cluster/...`), as cluster branches lay out
// objects. Its head commit's Gitfleet-Source-Commit trailer is the source commit the hub rendered
// last, so every newly rendered source commit gets a commit here, even one whose records did not
// change (an unchanged tree): that is how "each source commit is rendered once" survives restarts
// without putting a source id in any tree (docs/architecture.md#the-bindings-branch). Cluster
// branches, by contrast, get a commit only when their tree changes.
import type { FailoverDecision } from '../../core/model/failover.js';
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';
import {
  decisionTrailerLines,
  judgedTrailerLines,
  sameJudged,
  wakeAtTrailer,
} from '../../core/failover/failover-trailers.js';
import {
  aggregateStatusRequest,
  withTemplateStatus,
} from '../../core/interpret/aggregate-template-status.js';
import type { Template } from '../../core/model/fleet.js';
import type { InterpretRequest, ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import type { Binding, PreviousBinding } from '../../core/model/binding.js';
import { bindingRecord } from '../../core/publish/binding-record.js';
import { renderCommitMessage } from '../../core/publish/commit-message.js';
import type { BranchChange } from '../../core/publish/plan-cluster-update.js';
import { objectPath } from '../../core/format/object-path.js';
import type { BindingsOutcome } from './hub-pass-result.js';
import { sourceRefusedTrailer, sourceVerifiedTrailer } from '../../core/model/source-verification.js';
import {
  commitOfPass,
  needsSignature,
  newBlobs,
  treeOfPass,
  type BranchWrite,
  type PassContext,
} from './pass-context.js';
import { previousBindingOf } from '../../core/publish/previous-binding-of.js';
import type { TemplateProvenance } from '../../core/model/source-provenance.js';
import { templateSourceLines } from '../../core/sources/describe-provenance.js';
import { sameStatusHeads, statusTrailerLines } from './read-status-branches.js';
import { aggregateBindingStatus } from '../../core/status/aggregate-status.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import type { RecordedBinding } from './hub-pass-cache.js';
import { clusterTrailerLines, sameClusterHeads } from '../../core/publish/cluster-commit-trailers.js';
import { renderHeldLines, sameHeld } from '../../core/publish/render-move.js';
import {
  refusalTrailerLines,
  sameRefusals,
  type RefusedDeletion,
} from '../../core/publish/refusal-trailers.js';

export interface BindingsBranchInput {
  ref: string;
  head: string | null;
  /** The head's tree and files (none for a new branch). */
  current: { tree: string | null; files: ReadonlyMap<string, string> };
  /** The source commit the head's trailer names. */
  lastSource: string | null;
  /** The status heads (`cluster=commit`) the head's trailers name. */
  lastStatus: readonly string[];
  /** The cluster branch heads the head's trailers name (what the hub last wrote on each). */
  lastClusters: ReadonlyMap<string, string>;
  /** The head's Gitfleet-Wake-At and Gitfleet-Cluster-Judged values. */
  wakeAt?: string | null;
  judged?: readonly string[];
  /** The refusals the head records, and this pass's (plan-cluster-branch.ts): recorded in the commit's trailers. */
  refused?: readonly RefusedDeletion[];
  refusedNow?: readonly RefusedDeletion[];
  /** Cluster → its branch's head once this pass's refs have moved, recorded in the commit's trailers. */
  clusterHeads: ReadonlyMap<string, string>;
  bindings: readonly Binding[];
  /** The render's placements (RenderResult.placements). */
  placements: ReadonlyMap<string, PreviousBinding>;
  /** The agents' reports, aggregated into each record's status. */
  reports: ReadonlyMap<string, AgentReport>;
  /** Cluster → status branch head, recorded in the commit's trailers. */
  statusHeads: ReadonlyMap<string, string>;
  /**
   * Record paths whose current record (or its absence) stays as it is: the objects of a
   * cluster update the mass-deletion guard refused.
   */
  keep?: ReadonlySet<string>;
  /** The fleet's interpreter and templates, for AggregateStatus scripts. */
  interpreter?: ResourceInterpreter;
  templates?: ReadonlyMap<string, Template>;
  /** What the failover stage records: its files, its decisions' trailers, the verdicts and wake-at time. */
  failover?: FailoverWrites;
  /** The rollout stage's records (`.gitfleet/rollouts/`, every one kept) and its decisions' lines. */
  rollout?: { files: ReadonlyMap<string, string>; lines: readonly string[] };
  /**
   * With render repositories (place-cluster-branches.ts): where each branch lives
   * (`.gitfleet/render-repositories/`, every one kept) and the clusters held this pass.
   */
  render?: { files: ReadonlyMap<string, string>; held: ReadonlyMap<string, string> };
  /** The Gitfleet-Render-Held values the head records. */
  held?: readonly string[];
  /** Binding key → where the template came from, for templates a source rendered (docs/sources.md#provenance). */
  provenance?: ReadonlyMap<string, TemplateProvenance>;
  /** The FederatedResourceQuotas' status records (`.gitfleet/quotas/`, core/quota/quota-status.ts), path → text. */
  quotas?: ReadonlyMap<string, string>;
}

/** The failover stage's part of the bindings commit (core/failover/plan-failover.ts). */
export interface FailoverWrites {
  /** Files under `.gitfleet/failover/`, path → text: every one the branch keeps (others there are removed). */
  files: ReadonlyMap<string, string>;
  decisions: readonly FailoverDecision[];
  verdicts: ReadonlyMap<string, ClusterVerdict>;
  wakeAt?: Date;
}

/** Returns the bindings branch's new commit, or nothing when its records and source are unchanged. */
export async function planBindingsBranch(
  ctx: PassContext,
  input: BindingsBranchInput,
): Promise<{ outcome: BindingsOutcome; write?: BranchWrite }> {
  await prepareTemplateStatuses(input);
  const sources = new Map<string, TemplateProvenance>();
  const records = keepRecords(recordOids(ctx, input, sources), input);
  const kept = [
    ...(input.failover?.files ?? []),
    ...(input.rollout?.files ?? []),
    ...(input.render?.files ?? []),
    ...(input.quotas ?? []),
  ];
  for (const [path, text] of kept) records.set(path, ctx.blobs.oidAt(input.ref, path, text));
  const changes = diffFiles(input.current.files, records);
  const statusSeen = sameStatusHeads(input.lastStatus, input.statusHeads);
  const clustersSeen = sameClusterHeads(input.lastClusters, input.clusterHeads);
  const failover = failoverTrailers(input);
  if (
    changes.length === 0 &&
    input.lastSource === ctx.sourceCommit.commit &&
    statusSeen &&
    clustersSeen &&
    failover.seen &&
    !(input.head !== null && (await needsSignature(ctx, input.head)))
  ) {
    return { outcome: { type: 'unchanged', commit: input.head } };
  }
  // A Gitfleet-Template-Source line per source whose records this commit changes.
  const changedSources = changes.flatMap((c) => sources.get(c.path) ?? []);
  const failoverLines = [...templateSourceLines(changedSources), ...failover.lines];
  return writeBindingsCommit(ctx, input, { records, changes, failoverLines });
}

// The failover trailers of the commit (the decisions, the verdicts and the wake-at time), the
// rollout's, the refusals and the held renders; `seen` when the head records the same.
function failoverTrailers(input: BindingsBranchInput): { lines: string[]; seen: boolean } {
  const decisionLines = decisionTrailerLines(input.failover?.decisions ?? []);
  const verdicts = input.failover?.verdicts ?? new Map<string, ClusterVerdict>();
  const wakeAt = input.failover?.wakeAt?.toISOString() ?? null;
  const lines = [
    ...decisionLines,
    ...judgedTrailerLines(verdicts),
    ...(wakeAt ? [`${wakeAtTrailer}: ${wakeAt}`] : []),
    ...(input.rollout?.lines ?? []),
    ...refusalTrailerLines(input.refusedNow ?? []),
    ...renderHeldLines(input.render?.held ?? new Map()),
  ];
  const seen =
    decisionLines.length === 0 &&
    (input.rollout?.lines.length ?? 0) === 0 &&
    sameJudged(input.judged ?? [], verdicts) &&
    (input.wakeAt ?? null) === wakeAt &&
    sameRefusals(input.refused ?? [], input.refusedNow ?? []) &&
    sameHeld(input.held ?? [], input.render?.held ?? new Map());
  return { lines, seen };
}

// The new bindings commit: its tree at the changed paths, its message with every trailer.
async function writeBindingsCommit(
  ctx: PassContext,
  input: BindingsBranchInput,
  plan: { records: Map<string, string>; changes: ReturnType<typeof diffFiles>; failoverLines: string[] },
): Promise<{ outcome: BindingsOutcome; write: BranchWrite }> {
  const { records, changes } = plan;
  const tree = await treeOfPass(ctx, {
    base: input.current.tree,
    files: records,
    changes: changes.map((c) => ({
      path: c.path,
      oid: c.change === 'removed' ? null : records.get(c.path)!,
    })),
  });
  const commit = await commitOfPass(ctx, {
    tree: tree.root,
    parent: input.head,
    message: renderCommitMessage({
      sourceCommit: ctx.sourceCommit.commit,
      sourceRef: ctx.sourceCommit.ref,
      sourceSubject: ctx.sourceCommit.subject,
      changes,
      // An unchanged tree has an empty body: no blank line doubled before the trailers.
    })
      .replace(/\n{3,}/g, '\n\n')
      .concat(
        [
          ...statusTrailerLines(input.statusHeads),
          ...clusterTrailerLines(input.clusterHeads),
          ...plan.failoverLines,
          ...(ctx.sourceCommit.verified ? [`${sourceVerifiedTrailer}: ${ctx.sourceCommit.verified}`] : []),
          ...(ctx.sourceCommit.refused ? [`${sourceRefusedTrailer}: ${ctx.sourceCommit.refused}`] : []),
        ]
          .map((l) => `${l}\n`)
          .join(''),
      ),
  });
  const added = changes.filter((c) => c.change !== 'removed').map((c) => records.get(c.path)!);
  return {
    outcome: { type: 'updated', commit: commit.oid, records: records.size, changes: changes.length },
    write: {
      move: { ref: input.ref, oldOid: input.head, newOid: commit.oid },
      objects: [...newBlobs(ctx, added), ...tree.objects, commit],
    },
  };
}

/**
 * Returns each binding's record path and blob id. A record is a pure function of its binding
 * and status, so the binding the last pass recorded at the same path (the same object, which
 * an incremental render keeps for an unchanged binding, or an equal one: comparing JSON costs
 * a tenth of emitting the YAML) with the same status reuses that record's text and blob id.
 */
function recordOids(
  ctx: PassContext,
  input: BindingsBranchInput,
  sources: Map<string, TemplateProvenance>,
): Map<string, string> {
  const records = new Map<string, string>();
  const next = new Map<string, RecordedBinding>();
  ctx.blobs.carry(input.ref);
  for (const binding of input.bindings) {
    const aggregated =
      input.reports.size > 0 ? aggregateBindingStatus({ binding, reports: input.reports }) : undefined;
    const status =
      aggregated && withTemplateStatus(aggregated, input.interpreter, input.templates?.get(binding.key));
    const provenance = input.provenance?.get(binding.key);
    // The provenance is part of the record: a new tool version alone writes it again.
    const statusJson =
      (status === undefined ? '' : JSON.stringify(status)) +
      (provenance === undefined ? '' : `\u0000${JSON.stringify(provenance)}`);
    if (provenance) sources.set(objectPath(binding.resource), provenance);
    const last = ctx.cache.recordTexts.get(binding.key);
    // The same binding and status, and the branch holds its record: nothing to do.
    if (
      last?.binding === binding &&
      last.status === statusJson &&
      input.current.files.get(last.path) === last.oid
    ) {
      next.set(binding.key, last);
      records.set(last.path, last.oid);
      continue;
    }
    const path = objectPath(binding.resource);
    const json = JSON.stringify(binding);
    const text =
      last?.json === json && last.status === statusJson
        ? last.text
        : bindingRecord(binding, status, provenance);
    const recorded = ctx.blobs.oidAt(input.ref, path, text);
    next.set(binding.key, { binding, path, json, status: statusJson, text, oid: recorded });
    records.set(path, recorded);
    // What the next pass reads back from this record, known now without parsing it (the
    // render's own object, so the next render sees at once that the placement is its own).
    ctx.cache.records.set(recorded, input.placements.get(binding.key) ?? previousBindingOf(binding));
  }
  ctx.cache.recordTexts = next;
  return records;
}

/**
 * Runs the bindings' AggregateStatus scripts ahead, off the event loop (worker threads), so
 * that recordOids finds their results made: a slow script must not stop health checks and
 * lease renewal for the length of the pass.
 */
async function prepareTemplateStatuses(input: BindingsBranchInput): Promise<void> {
  const { interpreter, templates } = input;
  if (interpreter?.prepare === undefined || templates === undefined || input.reports.size === 0) return;
  const requests: InterpretRequest[] = [];
  for (const binding of input.bindings) {
    const template = templates.get(binding.key);
    if (template === undefined) continue;
    if (!interpreter.hookEnabled(template.ref.apiVersion, template.ref.kind, 'AggregateStatus')) continue;
    const aggregated = aggregateBindingStatus({ binding, reports: input.reports });
    requests.push(aggregateStatusRequest(aggregated, template));
  }
  if (requests.length > 0) await interpreter.prepare(requests);
}

/** Returns the records with the kept paths put back to what the branch holds there now. */
function keepRecords(records: Map<string, string>, input: BindingsBranchInput): Map<string, string> {
  for (const path of input.keep ?? []) {
    const held = input.current.files.get(path);
    if (held === undefined) records.delete(path);
    else records.set(path, held);
  }
  return records;
}

/** Returns the per-path changes from one file map to another, sorted by path. */
export function diffFiles(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): BranchChange[] {
  const changes: BranchChange[] = [];
  for (const [path, oid] of after) {
    const old = before.get(path);
    if (old === undefined) changes.push({ path, change: 'added' });
    else if (old !== oid) changes.push({ path, change: 'changed' });
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ path, change: 'removed' });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
