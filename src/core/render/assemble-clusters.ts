import type { Binding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { refLabel } from '../model/object-ref.js';
import { patchMap } from '../model/patched-map.js';
import type { ClusterOutput } from './cluster-output.js';
import type { RenderOutcome } from './render-copy.js';
import type { RenderUnit, UnitRender } from './render-unit.js';

/** One cluster's output and diagnostics. */
export interface ClusterRender {
  output: ClusterOutput;
  /** The cluster's diagnostics, each with the unit it came from and its place in the order. */
  diagnostics: readonly RankedDiagnostic[];
}

export interface RankedDiagnostic {
  unit: string;
  rank: string;
  diagnostic: Diagnostic;
}

export interface AssembleInput {
  clusters: readonly Cluster[];
  units: readonly RenderUnit[];
  /** Unit id → its rendered copies. */
  rendered: ReadonlyMap<string, UnitRender>;
}

/**
 * Returns every cluster's files, sorted by path, and diagnostics, in unit order. An object that
 * fails to render, or whose dispatching its policy suspends, is `held`: the cluster keeps what
 * it has for it.
 */
export function assembleClusters(input: AssembleInput): Map<string, ClusterRender> {
  const builders = new Map(input.clusters.map((c) => [c.name, new ClusterBuilder()]));
  for (const unit of input.units) {
    const { copies } = input.rendered.get(unit.id)!;
    for (const [cluster, copy] of copies) builders.get(cluster)!.place(unit, copy.outcome, cluster);
  }
  return new Map([...builders].map(([name, builder]) => [name, builder.done()]));
}

/**
 * Returns what assembleClusters returns, made from an earlier assembly over the same clusters
 * (same objects, same order) by assembling again only the clusters a dirty unit (rendered
 * again, added or gone since) is or was placed on, and only at that unit's paths: the other
 * clusters keep the earlier output object.
 */
export function patchClusters(
  input: AssembleInput,
  earlier: {
    /** The earlier assembly's units, by id. */
    rendered: ReadonlyMap<string, UnitRender>;
    clusters: ReadonlyMap<string, ClusterRender>;
    /** Ids of the units rendered again, added or gone since. */
    dirty: Iterable<string>;
  },
): Map<string, ClusterRender> {
  const units = new Map(input.units.map((u) => [u.id, u]));
  const touched = new Map<string, Set<string>>();
  for (const id of earlier.dirty) {
    const before = earlier.rendered.get(id)?.copies.keys() ?? [];
    const after = input.rendered.get(id)?.copies.keys() ?? [];
    for (const cluster of [...before, ...after]) {
      let ids = touched.get(cluster);
      if (!ids) touched.set(cluster, (ids = new Set()));
      ids.add(id);
    }
  }
  const result = new Map<string, ClusterRender>();
  for (const cluster of input.clusters) {
    const last = earlier.clusters.get(cluster.name)!;
    const ids = touched.get(cluster.name);
    if (!ids) {
      result.set(cluster.name, last);
      continue;
    }
    const builder = new ClusterBuilder(last, ids);
    // Removals first: a path can pass from one unit to another (a made-up Namespace to the repo's).
    for (const id of ids) {
      const copy = earlier.rendered.get(id)?.copies.get(cluster.name);
      if (copy) builder.remove(copy.outcome.path);
    }
    for (const id of ids) {
      const copy = input.rendered.get(id)?.copies.get(cluster.name);
      if (copy) builder.place(units.get(id)!, copy.outcome, cluster.name);
    }
    result.set(cluster.name, builder.done());
  }
  return result;
}

/**
 * One cluster's output being assembled: from nothing, or as changes to the last one (its files
 * are not copied: patchMap). Files and held paths are sorted by path.
 */
class ClusterBuilder {
  /** Path → text, or undefined for a path whose file is gone. */
  private readonly changes = new Map<string, string | undefined>();
  private readonly held: Map<string, string>;
  private readonly diagnostics: RankedDiagnostic[];
  /** Paths whose unit is gone, unless another unit places them again. */
  private readonly removed = new Set<string>();
  private readonly paths = new Set<string>();
  private heldSorted = true;

  constructor(
    private readonly last?: ClusterRender,
    dropped?: ReadonlySet<string>,
  ) {
    this.held = new Map(last?.output.held);
    this.diagnostics = last ? last.diagnostics.filter((d) => !dropped?.has(d.unit)) : [];
  }

  remove(path: string): void {
    this.removed.add(path);
    this.paths.add(path);
  }

  place(unit: RenderUnit, outcome: RenderOutcome, cluster: string): void {
    const { path } = outcome;
    if (this.last) {
      this.removed.delete(path);
      this.paths.add(path);
    }
    const diagnostic = diagnosticOf(unit.binding, cluster, outcome);
    if (diagnostic) this.diagnostics.push({ unit: unit.id, rank: unit.rank, diagnostic });
    if (isDispatchSuspended(unit.binding, cluster)) this.hold(path, 'dispatching suspended by its policy');
    else if (!outcome.ok) this.hold(path, outcome.error);
    else {
      this.held.delete(path);
      this.changes.set(path, outcome.text);
    }
  }

  done(): ClusterRender {
    for (const path of this.removed) {
      this.changes.set(path, undefined);
      this.held.delete(path);
    }
    const base = this.last?.output.files;
    // Built from nothing, the changes hold no removal (hold deletes): they are the files.
    const files = base ? patchMap(base, this.changes) : sortedByKey(this.changes as Map<string, string>);
    const output: ClusterOutput = { files, held: this.heldSorted ? this.held : sortedByKey(this.held) };
    if (this.last) output.derived = { from: this.last.output, paths: this.paths };
    const diagnostics = this.diagnostics.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
    return { output, diagnostics };
  }

  private hold(path: string, reason: string): void {
    if (this.last) this.changes.set(path, undefined);
    else this.changes.delete(path);
    if (!this.held.has(path)) this.heldSorted = false;
    this.held.set(path, reason);
  }
}

function sortedByKey(map: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

function diagnosticOf(binding: Binding, cluster: string, outcome: RenderOutcome): Diagnostic | undefined {
  const subject = refLabel(binding.resource);
  if (isDispatchSuspended(binding, cluster)) {
    return {
      severity: 'info',
      code: 'DispatchSuspended',
      subject,
      cluster,
      message: 'dispatching is suspended by its policy: the cluster keeps what it has',
    };
  }
  if (outcome.ok) return undefined;
  const code = outcome.tooLarge
    ? 'ObjectTooLarge'
    : outcome.tenantRefused
      ? 'TenantRefused'
      : outcome.noRecipient
        ? 'AgeRecipientMissing'
        : outcome.quotaExceeded
          ? 'QuotaExceeded'
          : 'OverrideFailed';
  return { severity: 'error', code, subject, cluster, message: outcome.error };
}

// Karmada's shouldSuspendDispatching (pkg/controllers/binding/common.go): `dispatching: true`
// suspends every cluster, `dispatchingOnClusters` the listed ones.
function isDispatchSuspended(binding: Binding, cluster: string): boolean {
  const s = binding.suspension;
  if (!s) return false;
  return s.dispatching === true || (s.dispatchingOnClusters?.clusterNames.includes(cluster) ?? false);
}
