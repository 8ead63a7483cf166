// The rollout stage of a pass (docs/rollout.md), between the render and the branch plans: it
// reads what the pure planner needs from the repository (the texts the clusters run of the
// selected objects, the rollout records, the approvals on the source branch), runs
// core/rollout/plan-rollouts.ts, and turns its answer into the cluster outputs the branches are
// planned from: a held cluster keeps the selected objects it runs (with the scheduler's
// replicas), a rolled back one gets its last good objects, a moved one the render.
import type { Fleet } from '../../core/model/fleet.js';
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { PreviousBinding } from '../../core/model/binding.js';
import type { RolloutDecision } from '../../core/model/rollout.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import { objectPath } from '../../core/format/object-path.js';
import {
  classifyChange,
  emptyDigest,
  entryDigest,
  heldText,
  objectDigest,
  xorInto,
  type HeldChange,
} from '../../core/rollout/held-objects.js';
import { planRollouts, rolloutDir, type ClusterView } from '../../core/rollout/plan-rollouts.js';
import { templatesByStrategy } from '../../core/rollout/rollout-steps.js';
import { parseRolloutRecord } from '../../core/rollout/rollout-record.js';
import { strategyLabel } from '../../core/model/rollout.js';
import {
  approvalsOf,
  clusterRolloutLine,
  rolloutDecisionLines,
} from '../../core/rollout/rollout-trailers.js';
import { hashObject } from '../../adapters/git/hash-object.js';
import { readStoredObject } from '../../adapters/git/object-store.js';
import { parseCommitParents } from '../../adapters/git/read-git-object.js';
import { clusterRef } from '../../core/publish/hub-refs.js';
import { patchMap } from '../../core/model/patched-map.js';
import { readCommitFiles, readCommitInfo, type ReadContext } from './read-git-state.js';
import type { HubState } from './read-hub-state.js';

/** What the rollout stage gives the rest of the pass. */
export interface RolloutStage {
  /** The render's cluster outputs, with the held and rolled back objects in place. */
  clusters: Map<string, ClusterOutput>;
  /** Files under `.gitfleet/rollouts/` of the bindings branch (every one it keeps). */
  files: Map<string, string>;
  /** The bindings commit's Gitfleet-Rollout lines. */
  lines: string[];
  decisions: RolloutDecision[];
  /** Cluster → the trailer lines its commit carries (the rollouts it is in). */
  clusterLines: Map<string, string[]>;
  diagnostics: Diagnostic[];
  wakeAt?: Date;
}

/**
 * What a pass's rollout stage keeps for the next one, so a pass costs what changed: the blob
 * ids and content digests of the texts it saw (by text), and each edited cluster output with
 * the render output and edits it was made from (an unchanged pair gives the same object back,
 * a render derived from the last one gives an output derived from the last one, so the branch
 * is planned at its changed paths only).
 */
export interface RolloutCache {
  oids: Map<string, string>;
  digests: Map<string, string>;
  outputs: Map<string, EditedOutput>;
  /** `<strategy>\0<cluster>` → what the stage saw there, and from what (a cluster whose render and head are the same is not looked at again). */
  looks: Map<
    string,
    { pathsKey: string; output: ClusterOutput; head: string | null; look: ClusterLook | undefined }
  >;
}

interface EditedOutput {
  render: ClusterOutput;
  edits: ReadonlyMap<string, string | undefined>;
  output: ClusterOutput;
}

/** Texts remembered by blob id and digest: past this many, the memory starts over. */
const maxRememberedTexts = 200_000;

/** This pass's view of the cache: what it reads from the last pass, and what it keeps for the next. */
class RolloutMemo {
  readonly next: RolloutCache;

  constructor(private readonly last: RolloutCache | undefined) {
    // The texts' ids and digests carry over whole (a look reused from the last pass reads none
    // of them, and the next pass may need them), bounded by maxRememberedTexts.
    const keep = (m: Map<string, string> | undefined) =>
      m && m.size < maxRememberedTexts ? m : new Map<string, string>();
    this.next = {
      oids: keep(last?.oids),
      digests: keep(last?.digests),
      outputs: new Map(),
      looks: new Map(),
    };
  }

  oidOf(text: string): string {
    let oid = this.next.oids.get(text);
    if (oid === undefined) this.next.oids.set(text, (oid = hashObject('blob', Buffer.from(text, 'utf8'))));
    return oid;
  }

  digestOf = (path: string, text: string): string => {
    let digest = this.next.digests.get(text);
    if (digest === undefined) this.next.digests.set(text, (digest = objectDigest(path, text)));
    return digest;
  };

  /** Returns the look at a strategy's objects on a cluster: the last pass's when its inputs are the same ones. */
  async look(
    key: { label: string; pathsKey: string; cluster: string; output: ClusterOutput; head: string | null },
    compute: (since?: {
      look: ClusterLook | undefined;
      paths: ReadonlySet<string>;
    }) => Promise<ClusterLook | undefined>,
  ): Promise<ClusterLook | undefined> {
    const id = `${key.label}\0${key.cluster}`;
    const last = this.last?.looks.get(id);
    const comparable = last && last.pathsKey === key.pathsKey && last.head === key.head;
    const derived = key.output.derived;
    // The same render and head: the same look. A render derived from the last one: only its changed paths.
    const look =
      comparable && last.output === key.output
        ? last.look
        : await compute(
            comparable && derived?.from === last.output
              ? { look: last.look, paths: derived.paths }
              : undefined,
          );
    this.next.looks.set(id, { pathsKey: key.pathsKey, output: key.output, head: key.head, look });
    return look;
  }

  /** The clusters whose outputs the last pass edited. */
  lastEdited(): Iterable<string> {
    return this.last?.outputs.keys() ?? [];
  }

  /**
   * Returns the render output with the edits in place: the last pass's object when the render
   * and the edits are the same, else a new output, derived from what the branch was planned
   * from last pass (`plannedLast`) when the difference is known, so it is planned at those paths.
   */
  edited(
    cluster: string,
    render: ClusterOutput,
    edits: ReadonlyMap<string, string | undefined>,
    plannedLast: ClusterOutput | undefined,
  ): ClusterOutput {
    const last = this.last?.outputs.get(cluster);
    let output: ClusterOutput;
    if (last && last.render === render && sameEdits(last.edits, edits)) output = last.output;
    else {
      output = { files: patchMap(render.files, edits), held: render.held };
      // The planned output was the last edited one (its render and edits) or a plain render.
      const base =
        plannedLast && last?.output === plannedLast
          ? last
          : plannedLast && { render: plannedLast, edits: noEdits };
      const rendered = base ? renderChanges(render, base.render) : undefined;
      if (base && plannedLast && rendered)
        output.derived = { from: plannedLast, paths: changedPaths(rendered, base.edits, edits) };
    }
    this.next.outputs.set(cluster, { render, edits, output });
    return output;
  }
}

/** The paths where a render output may differ from an earlier one: none for the same object, its derived paths when derived from it. */
function renderChanges(render: ClusterOutput, before: ClusterOutput): ReadonlySet<string> | undefined {
  if (render === before) return noPaths;
  return render.derived?.from === before ? render.derived.paths : undefined;
}

const noPaths: ReadonlySet<string> = new Set();

const noEdits: ReadonlyMap<string, string | undefined> = new Map();

function sameEdits(
  a: ReadonlyMap<string, string | undefined>,
  b: ReadonlyMap<string, string | undefined>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [path, text] of a) if (!b.has(path) || b.get(path) !== text) return false;
  return true;
}

function changedPaths(
  rendered: ReadonlySet<string>,
  before: ReadonlyMap<string, string | undefined>,
  after: ReadonlyMap<string, string | undefined>,
): Set<string> {
  const paths = new Set(rendered);
  for (const [path, text] of before) if (!after.has(path) || after.get(path) !== text) paths.add(path);
  for (const [path, text] of after) if (!before.has(path) || before.get(path) !== text) paths.add(path);
  return paths;
}

/** How far back along the source branch's first parents approvals are looked for. */
const maxApprovalCommits = 200;

/** Returns the stage's outcome, or undefined when the fleet has no strategy and the branch no record. */
export async function planRolloutStage(
  ctx: ReadContext,
  input: {
    now: Date;
    fleet: Fleet;
    render: RenderResult;
    state: HubState;
    reports: ReadonlyMap<string, AgentReport>;
    previous: ReadonlyMap<string, PreviousBinding>;
    sourceCommit: string;
  },
): Promise<RolloutStage | undefined> {
  const strategies = input.fleet.rolloutStrategies ?? [];
  const recorded = await readRecords(ctx, input.state.bindings.current.files);
  if (strategies.length === 0 && recorded.size === 0) {
    delete ctx.cache.rollout;
    return undefined;
  }
  const memo = new RolloutMemo(ctx.cache.rollout);
  const selected = selectedPaths({ ...input, recorded });
  const bases = new Map<string, ReadonlyMap<string, string>>();
  for (const name of input.render.clusters.keys()) {
    bases.set(name, (await readCommitFiles(ctx, input.state.clusterHeads.get(name) ?? null)).files);
  }
  const looks = new Map<string, Map<string, ClusterLook>>();
  const views = new Map<string, Map<string, ClusterView>>();
  for (const [label, paths] of selected) {
    const byCluster = new Map<string, ClusterLook>();
    const viewed = new Map<string, ClusterView>();
    const pathsKey = [...paths].map(([path, existed]) => `${path}${existed ? '+' : '-'}`).join('\n');
    // Every cluster at once: a look that reads blobs waits on the disk, not on the others.
    const clusterLooks = await Promise.all(
      [...input.render.clusters].map(async ([name, output]) => {
        const head = input.state.clusterHeads.get(name) ?? null;
        const look = await memo.look({ label, pathsKey, cluster: name, output, head }, (since) =>
          lookAt(ctx, memo, paths, output, bases.get(name)!, since),
        );
        return [name, look] as const;
      }),
    );
    for (const [name, look] of clusterLooks) {
      if (!look) continue;
      byCluster.set(name, look);
      viewed.set(name, look.view);
    }
    looks.set(label, byCluster);
    views.set(label, viewed);
  }
  const planned = planRollouts({
    now: input.now,
    sourceCommit: input.sourceCommit,
    lastSource: input.state.bindings.lastSource,
    strategies,
    clusters: input.fleet.clusters,
    views,
    newObjects: new Map(
      [...selected].map(([label, paths]) => [
        label,
        [...paths].filter(([, existed]) => !existed).map(([p]) => p),
      ]),
    ),
    clusterHeads: input.state.clusterHeads,
    reports: input.reports,
    recorded,
    approvals: strategies.some((s) => s.steps.some((step) => step.approval === 'Manual'))
      ? await readApprovals(ctx, input.sourceCommit, recordedRevisions(recorded))
      : [],
  });
  const clusters = new Map(input.render.clusters);
  const edits = new Map<string, Map<string, string | undefined>>();
  for (const [label, actions] of planned.actions) {
    for (const [cluster, action] of actions) {
      if (action.type === 'move') continue;
      const look = looks.get(label)?.get(cluster);
      const output = input.render.clusters.get(cluster);
      if (!look || !output) continue;
      const edit = edits.get(cluster) ?? new Map<string, string | undefined>();
      edits.set(cluster, edit);
      if (action.type === 'hold') holdEdits(look, output, edit);
      else await rollbackEdits(ctx, action.lastGood, look, output, edit);
    }
  }
  // A cluster edited last pass goes through the memo this pass too (with no edits once nothing is
  // held), so its output stays derived from what its branch was planned from.
  for (const cluster of new Set([...edits.keys(), ...memo.lastEdited()])) {
    const output = input.render.clusters.get(cluster);
    if (!output) continue;
    const planned = ctx.cache.branches.get(clusterRef(input.fleet.config.branchPrefix, cluster))?.output;
    clusters.set(cluster, memo.edited(cluster, output, edits.get(cluster) ?? noEdits, planned));
  }
  ctx.cache.rollout = memo.next;
  return {
    clusters,
    files: planned.files,
    lines: rolloutDecisionLines(planned.decisions),
    decisions: planned.decisions,
    clusterLines: clusterLinesOf(planned),
    diagnostics: planned.diagnostics,
    ...(planned.wakeAt ? { wakeAt: planned.wakeAt } : {}),
  };
}

/** One strategy's objects on one cluster: what the render changes, path by path. */
interface ClusterLook {
  view: ClusterView;
  paths: Map<string, { change: HeldChange; before?: string }>;
  /** The rendered selected paths, each with its part of the content digest (held-objects.ts entryDigest). */
  rendered: Map<string, Buffer>;
  /** The content digest so far (the XOR of `rendered`'s parts). */
  acc: Buffer;
}

/**
 * Strategy label → the paths of the templates it selects, with whether the template existed
 * before: it has a binding, and it was not new to the fleet when the rollout in progress began
 * (that rollout's own first pass gave it a binding).
 */
function selectedPaths(input: {
  fleet: Fleet;
  previous: ReadonlyMap<string, PreviousBinding>;
  recorded: ReadonlyMap<string, string>;
}): Map<string, Map<string, boolean>> {
  const newInRollout = new Map<string, ReadonlySet<string>>();
  for (const text of input.recorded.values()) {
    const state = parseRolloutRecord(text);
    if (state && state.phase !== 'Complete' && state.newObjects)
      newInRollout.set(strategyLabel(state.strategy), new Set(state.newObjects));
  }
  const by = new Map<string, Map<string, boolean>>();
  for (const [label, templates] of templatesByStrategy(
    input.fleet.templates,
    input.fleet.rolloutStrategies ?? [],
  )) {
    const paths = new Map<string, boolean>();
    const fresh = newInRollout.get(label);
    for (const t of templates) {
      const path = objectPath(t.ref);
      paths.set(path, input.previous.has(t.key) && !fresh?.has(path));
    }
    by.set(label, paths);
  }
  return by;
}

/**
 * Returns what the render changes of a strategy's objects on one cluster, path by path; `since`
 * is the last pass's look when only some paths can have changed (the render derived from the
 * one it looked at, the same head), which is then updated at those paths only.
 */
async function lookAt(
  ctx: ReadContext,
  memo: RolloutMemo,
  paths: ReadonlyMap<string, boolean>,
  output: ClusterOutput,
  base: ReadonlyMap<string, string>,
  since?: { look: ClusterLook | undefined; paths: ReadonlySet<string> },
): Promise<ClusterLook | undefined> {
  const look: ClusterLook = since?.look
    ? {
        view: since.look.view,
        paths: new Map(since.look.paths),
        rendered: new Map(since.look.rendered),
        acc: Buffer.from(since.look.acc),
      }
    : {
        view: { pending: false, digest: '', paths: [] },
        paths: new Map(),
        rendered: new Map(),
        acc: emptyDigest(),
      };
  const visit = since ? [...since.paths].filter((p) => paths.has(p)) : paths.keys();
  for (const path of visit) {
    const old = look.rendered.get(path);
    if (old) xorInto(look.acc, old);
    look.rendered.delete(path);
    look.paths.delete(path);
    const text = output.files.get(path);
    const beforeOid = base.get(path);
    if (text === undefined && beforeOid === undefined) continue;
    if (text !== undefined) {
      const entry = entryDigest(path, memo.digestOf(path, text));
      xorInto(look.acc, entry);
      look.rendered.set(path, entry);
    }
    if (text !== undefined && beforeOid !== undefined && memo.oidOf(text) === beforeOid) {
      look.paths.set(path, { change: 'same' });
      continue;
    }
    const before = beforeOid === undefined ? undefined : await readText(ctx, beforeOid);
    const change = classifyChange(path, before, text, paths.get(path)!);
    look.paths.set(path, { change, ...(before !== undefined ? { before } : {}) });
  }
  if (look.paths.size === 0) return undefined;
  let pending = false;
  for (const p of look.paths.values()) if (p.change === 'content') pending = true;
  look.view = { pending, digest: look.acc.toString('hex'), paths: [...look.rendered.keys()].sort() };
  return look;
}

/** A held cluster keeps what it runs of a changed object (with the render's replicas); a new template stays away. */
function holdEdits(look: ClusterLook, output: ClusterOutput, edit: Map<string, string | undefined>): void {
  for (const [path, p] of look.paths) {
    if (p.change !== 'content') continue;
    edit.set(path, p.before === undefined ? undefined : heldText(path, p.before, output.files.get(path)));
  }
}

/** A rolled back cluster gets the selected objects of its last good commit (with the render's replicas). */
async function rollbackEdits(
  ctx: ReadContext,
  lastGood: string,
  look: ClusterLook,
  output: ClusterOutput,
  edit: Map<string, string | undefined>,
): Promise<void> {
  const good = (await readCommitFiles(ctx, lastGood)).files;
  for (const path of look.paths.keys()) {
    const rendered = output.files.get(path);
    if (rendered === undefined) continue;
    const oid = good.get(path);
    edit.set(path, oid === undefined ? undefined : heldText(path, await readText(ctx, oid), rendered));
  }
}

function clusterLinesOf(planned: ReturnType<typeof planRollouts>): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  const completedNow = new Set(planned.decisions.filter((d) => d.type === 'Complete').map((d) => d.strategy));
  for (const [label, state] of planned.states) {
    if (state.phase === 'Complete' && !completedNow.has(label)) continue;
    for (const c of state.clusters) {
      const list = lines.get(c.name) ?? [];
      list.push(clusterRolloutLine(state, c));
      lines.set(c.name, list);
    }
  }
  return lines;
}

async function readRecords(
  ctx: ReadContext,
  files: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const recorded = new Map<string, string>();
  for (const [path, oid] of files)
    if (path.startsWith(rolloutDir)) recorded.set(path, await readText(ctx, oid));
  return recorded;
}

async function readText(ctx: ReadContext, oid: string): Promise<string> {
  const object = await readStoredObject(ctx.store, oid);
  return Buffer.from(object.content).toString('utf8');
}

function recordedRevisions(recorded: ReadonlyMap<string, string>): Set<string> {
  const revisions = new Set<string>();
  for (const text of recorded.values()) {
    const m = /^revision: "?([0-9a-f]{40})"?$/m.exec(text);
    if (m) revisions.add(m[1]!);
  }
  return revisions;
}

/**
 * Returns the approvals on the source branch: from the rendered commit back along first
 * parents until every recorded revision was passed (or maxApprovalCommits), newest first.
 */
async function readApprovals(
  ctx: ReadContext,
  from: string,
  revisions: ReadonlySet<string>,
): Promise<{ commit: string; approvals: string[] }[]> {
  const found: { commit: string; approvals: string[] }[] = [];
  const unseen = new Set(revisions);
  let commit: string | undefined = from;
  for (let i = 0; commit && i < maxApprovalCommits; i++) {
    const { message } = await readCommitInfo(ctx, commit);
    found.push({ commit, approvals: approvalsOf(message) });
    unseen.delete(commit);
    if (unseen.size === 0) break;
    const object = await readStoredObject(ctx.store, commit);
    commit = parseCommitParents(object.content)[0];
  }
  return found;
}
