// Step 7 of a pass: the report (objects, conditions, cluster facts, the commit fully applied)
// and its status commit, written only when Git is reachable and the report changed.
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import { statusCommitMessage } from '../../core/apply-plan/status-commit-message.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import type { ClusterStatus } from '../../core/model/cluster.js';
import type { StatusCondition } from '../../core/status/parse-conditions.js';
import { parseStatusBranch, type AgentReport } from '../../core/status/status-branch.js';
import type { ClusterApi } from './cluster-api.js';
import type { Clock } from '../runtime/clock.js';
import type { AgentMemory } from './agent-memory.js';
import type { AgentRepo } from './agent-repo.js';
import type { ObjectResult } from './object-result.js';
import type { ExportedSlice } from '../../core/model/exported-slice.js';
import { objectRecords, observedRecords, prepareObjectRecords } from './object-records.js';
import { refKey, refLabel } from '../../core/model/object-ref.js';
import { failureLines, isFullyApplied, passConditions, type ConditionsInput } from './pass-conditions.js';
import type { PruneOutcome } from './prune-objects.js';
import type { BranchRead } from './read-cluster-branch.js';
import { readStatusFiles, writeStatusBranch } from './write-status-branch.js';
import { describeVerdict } from '../../core/model/signature-verdict.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import {
  noteStatusStale,
  noteStatusWriteFailed,
  noteStatusWritten,
  type StatusTarget,
} from './status-target.js';
import type { PushPacer } from './push-pacer.js';

export interface StatusOutcome {
  /** deferred: the report changed but the push pacer holds it (push-pacer.ts); nothing written. */
  type: 'written' | 'unchanged' | 'skipped' | 'deferred';
  /** The status branch's head afterwards (absent when skipped or deferred). */
  commit?: string;
  /** When deferred: the pass that writes it should run this much later. */
  retryInMs?: number;
  fullyApplied: boolean;
  /** Why the status was not written: its status repository cannot be read or refused the write. */
  problem?: string;
}

export interface ReportInput {
  repo: AgentRepo;
  client: ClusterApi;
  cluster: string;
  statusRef: string;
  branch: BranchRead;
  gitReachable: boolean;
  objects: readonly ObjectResult[];
  prune: PruneOutcome | undefined;
  /** The exported Services' slices as collected this pass (absent: not collected). */
  exports?: ExportedSlice[];
  memory: AgentMemory;
  clock: Clock;
  identity: { name: string; email: string };
  factsMaxAgeMs: number;
  /** Set when the stored inventory did not read: what was done about it. */
  inventoryProblem?: string;
  /** Set when the cluster did not answer: why. */
  clusterUnreachable?: string;
  /** Told when writing the status branch recovered stale ref locks. */
  warn?: (message: string) => void;
  /** Runs the branch's customizations (InterpretHealth, InterpretStatus). */
  interpreter?: ResourceInterpreter;
  /** Where the status goes (status-target.ts); absent: `repo`, with no status repository. */
  target?: StatusTarget;
  /** Paces the status push with the heartbeat's (push-pacer.ts); absent: pushed at once. */
  pacer?: PushPacer;
  info?: (message: string) => void;
  /** Signs the status commit (`agent --signing-key`). */
  signer?: CommitSigner;
}

/** Keeps the remembered applies of the objects this pass handled only (pruned ones go). */
function forgetGoneApplies(memory: AgentMemory, objects: readonly ObjectResult[]): void {
  if (memory.specApplied.size === 0) return;
  const kept = new Set(objects.map((o) => refKey(o.ref)));
  for (const key of memory.specApplied.keys()) if (!kept.has(key)) memory.specApplied.delete(key);
}

/** Builds the pass's report and writes it to the status branch when it changed; returns what happened. */
export async function reportPass(input: ReportInput): Promise<StatusOutcome> {
  const { branch, memory } = input;
  const unparsed = branch.type === 'objects' ? branch.errors : [];
  const cond: ConditionsInput = {
    objects: input.objects,
    unparsed: unparsed.length,
    prune: input.prune,
    lastOutage: memory.git.lastOutage,
    ...(input.inventoryProblem ? { inventoryProblem: input.inventoryProblem } : {}),
  };
  const fullyApplied = branch.type === 'objects' && input.gitReachable && isFullyApplied(cond);
  if (!input.gitReachable) return { type: 'skipped', fullyApplied };
  if (input.target?.problemKind === 'read')
    return { type: 'skipped', fullyApplied, problem: input.target.problem! };
  await startFromLastReport(input);
  if (fullyApplied) memory.appliedCommit = branch.commit;
  const report = await statusReport(input, cond, unparsed);
  memory.lastObjects = report.objects;
  memory.lastExports = report.exports ?? [];
  const message = statusCommitMessage({
    cluster: input.cluster,
    commit: branch.type === 'missing' ? null : branch.commit,
    fullyApplied,
    tombstoned: branch.type === 'tombstoned',
    ...(branch.type === 'unverified' ? { unverified: describeVerdict(branch.verdict) } : {}),
    objects: input.objects.length + unparsed.length,
    failures: failureLines(cond, unparsed),
    notes: memory.git.lastOutage ? [memory.git.lastOutage] : [],
    ...(input.clusterUnreachable ? { clusterUnreachable: input.clusterUnreachable } : {}),
    drift: [...memory.driftUntold.values()],
    driftPaused: input.objects.filter((o) => o.action === 'driftPaused').map((o) => refLabel(o.ref)),
  });
  const untold = new Map(memory.driftUntold);
  const written = await writeStatus(input, report, message);
  // Told: the corrections the message listed (a later pass's are summed for the next commit).
  if (written.type === 'written')
    for (const [k, n] of untold) if (memory.driftUntold.get(k) === n) memory.driftUntold.delete(k);
  input.pacer?.setStatusWaiting(written.type === 'deferred');
  if (written.type === 'deferred') return { type: 'deferred', fullyApplied, retryInMs: written.waitMs };
  if (input.target && written.type !== 'skipped') noteStatusWritten(input, input.target);
  return { ...written, fullyApplied };
}

// An agent without memory (just started, or --once) starts from what it reported last, so
// a cluster that does not answer keeps its objects as last seen, not an empty list.
async function startFromLastReport(input: ReportInput): Promise<void> {
  const { memory } = input;
  if (memory.appliedCommit !== undefined && memory.lastObjects !== undefined) return;
  const last = parseStatusBranch(await readStatusFiles(input.repo.gitdir, input.statusRef));
  memory.appliedCommit ??= last?.appliedCommit ?? null;
  memory.lastObjects ??= last?.objects ?? [];
  memory.lastExports ??= last?.exports ?? [];
}

// The report of the pass: every object's record, the cluster's facts, the conditions, the exports.
async function statusReport(
  input: ReportInput,
  cond: ConditionsInput,
  unparsed: Extract<ReportInput['branch'], { type: 'objects' }>['errors'],
): Promise<AgentReport> {
  const { branch, memory } = input;
  if (branch.type === 'objects') await prepareObjectRecords(input.objects, input.interpreter);
  // A head refused for its signature changes nothing in the cluster: the objects stay as last reported.
  const kept = branch.type === 'unverified';
  const records =
    branch.type === 'objects'
      ? objectRecords(input.objects, unparsed, input.interpreter, memory.specApplied)
      : kept
        ? (memory.lastObjects ?? [])
        : [];
  const exports = kept ? memory.lastExports : input.exports;
  if (branch.type === 'objects' && !input.clusterUnreachable) forgetGoneApplies(memory, input.objects);
  if (!input.clusterUnreachable && !kept)
    memory.observed = observedRecords(input.objects, records, input.interpreter);
  if (input.clusterUnreachable) return unreachableReport(input);
  return {
    cluster: input.cluster,
    appliedCommit: memory.appliedCommit ?? null,
    clusterStatus: await clusterFacts(input),
    objects: records,
    conditions: branch.type === 'objects' ? passConditions(cond) : [branchCondition(branch, input)],
    ...(exports?.length ? { exports } : {}),
  };
}

// Writes the status commit; a status repository refusing the write is reported, not thrown:
// the pass applied all the same.
function writeStatus(
  input: ReportInput,
  report: AgentReport,
  message: string,
): Promise<Awaited<ReturnType<typeof writeStatusBranch>> | { type: 'skipped'; problem: string }> {
  const { memory } = input;
  const now = input.clock.now();
  return writeStatusBranch({
    repo: input.repo,
    ref: input.statusRef,
    report,
    message,
    // Drift corrections not yet told are news the tree does not hold: they make a commit (paced like any).
    ...(memory.driftUntold.size > 0 ? { news: true } : {}),
    author: { ...input.identity, time: Math.floor(now / 1000), tzOffsetMinutes: 0 },
    memo: memory.status,
    ...(input.pacer ? { pacer: input.pacer } : {}),
    ...(input.warn ? { warn: input.warn } : {}),
    ...(input.signer ? { signer: input.signer } : {}),
  }).catch((error: unknown) => {
    const { target } = input;
    if (isLostRace(error)) noteStatusStale(memory);
    if (target?.url === undefined || isLostRace(error)) throw lostRace(input, error);
    return { type: 'skipped' as const, problem: noteStatusWriteFailed(input, target, error).problem! };
  });
}

/** Codes of a compare-and-swap lost on the status branch, locally or on the remote. */
const raceCodes = new Set(['RefConflict', 'PushRejected']);

function isLostRace(error: unknown): boolean {
  return error instanceof GitfleetError && raceCodes.has(error.code);
}

/**
 * Returns the error to throw for a failed status write: a lost compare-and-swap means another
 * writer moved the status branch between this pass's read and its write, and only agents of
 * this cluster write it, so the message says so (the code and retryability stay the same).
 */
function lostRace(input: ReportInput, error: unknown): unknown {
  if (!(error instanceof GitfleetError) || !raceCodes.has(error.code)) return error;
  const branch = input.statusRef.replace(/^refs\/heads\//, '');
  const message = `${input.cluster}: another agent for cluster ${input.cluster} wrote ${branch} first (is a second agent running for ${input.cluster}? only one may): ${error.message}`;
  return new GitfleetError(message, { code: error.code, terminal: error.terminal, cause: error });
}

/** The report of a pass whose cluster did not answer: NotReady, and the objects as last seen. */
async function unreachableReport(input: ReportInput): Promise<AgentReport> {
  const clusterStatus = await input.client.readFacts();
  input.memory.facts = { atMs: input.clock.now(), status: clusterStatus };
  return {
    cluster: input.cluster,
    appliedCommit: input.memory.appliedCommit ?? null,
    clusterStatus,
    objects: input.memory.lastObjects ?? [],
    ...(input.memory.lastExports?.length ? { exports: input.memory.lastExports } : {}),
    conditions: [
      {
        type: 'Applied',
        status: 'False',
        reason: 'ClusterUnreachable',
        // The error itself (which request failed, refused or reset) goes into the commit
        // message only: in the report it would make each failing pass a new status commit.
        message: 'the cluster did not answer (the status commit says why)',
      },
    ],
  };
}

function branchCondition(branch: BranchRead, input: ReportInput): StatusCondition {
  if (branch.type === 'unverified') {
    return {
      type: 'Verified',
      status: 'False',
      reason: branch.verdict.problem,
      message: `${describeVerdict(branch.verdict)}: the agent applied nothing and deleted nothing; what runs in the cluster stays as it was`,
    };
  }
  if (branch.type === 'tombstoned') {
    return {
      type: 'Tombstoned',
      status: 'True',
      reason: 'ClusterRemoved',
      message: 'the cluster branch is tombstoned: the agent stopped applying it and deleted nothing',
    };
  }
  return {
    type: 'Applied',
    status: 'False',
    reason: 'NoClusterBranch',
    message: `${input.statusRef.replace('/status/', '/clusters/')} does not exist yet: nothing to apply`,
  };
}

/** Returns the cluster's facts, read again when older than factsMaxAgeMs. */
async function clusterFacts(input: ReportInput): Promise<ClusterStatus> {
  const now = input.clock.now();
  const cached = input.memory.facts;
  if (cached && now - cached.atMs < input.factsMaxAgeMs) return cached.status;
  const status = await input.client.readFacts();
  input.memory.facts = { atMs: now, status };
  return status;
}
