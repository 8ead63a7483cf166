// One side of a preview rendered the way a hub pass renders it (hub/plan-pass-render.ts) on
// the recorded state, with each registered cluster's output as the pass commits it to the
// cluster branch: the render plus the hub's own `.gitfleet/` files (plan-pass-writes.ts).
import { hashObject } from '../../adapters/git/hash-object.js';
import type { Fleet } from '../../core/model/fleet.js';
import type { RolloutState } from '../../core/model/rollout.js';
import { providedServices } from '../../core/mcs/provider-exports.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import { defaultHubFailover } from '../hub/hub-failover.js';
import { planPassRender } from '../hub/plan-pass-render.js';
import { clusterBranchOutput } from '../hub/plan-pass-writes.js';
import { readCommitFiles } from '../hub/read-git-state.js';
import { readBlobText } from '../../adapters/git/read-typed-object.js';
import type { RecordedState } from './read-recorded-state.js';

/** A side rendered as the hub would, and the files each cluster branch holds now (path → blob id). */
export interface HubRender {
  render: RenderResult;
  /** Per cluster with a branch: its current files, path → blob id. */
  current: Map<string, ReadonlyMap<string, string>>;
  /**
   * With rollout strategies: the render before the rollout stage held anything (each cluster's
   * output as it will be once every step has passed), and each strategy's rollout after the pass.
   */
  rollouts?: { unheld: RenderResult; states: ReadonlyMap<string, RolloutState> };
}

/** Returns the render a hub pass would make of the fleet at `commit` on the recorded state, without writing. */
export async function renderAsHub(input: {
  recorded: RecordedState;
  fleet: Fleet;
  commit: string;
  now: Date;
}): Promise<HubRender> {
  const { recorded, fleet } = input;
  const { read, state } = recorded;
  // A preview has no cluster monitor: no verdicts, as a hub that has not judged heartbeats yet.
  const planned = await planPassRender({
    read,
    fleet,
    state,
    sourceCommit: input.commit,
    now: input.now,
    failover: defaultHubFailover(),
    verdicts: new Map(),
  });
  const current = new Map<string, ReadonlyMap<string, string>>();
  for (const [cluster, head] of state.clusterHeads)
    current.set(cluster, (await readCommitFiles(read, head)).files);
  const provided = providedServices(fleet);
  const outputsOf = (render: RenderResult): Map<string, ClusterOutput> => {
    const clusters = new Map<string, ClusterOutput>();
    for (const [cluster, rendered] of render.clusters) {
      const output = clusterBranchOutput({
        fleet,
        cluster,
        rendered,
        provided: provided.get(cluster) ?? [],
        current: current.get(cluster) ?? new Map(),
      });
      clusters.set(cluster, output);
    }
    return clusters;
  };
  const render = { ...planned.render, clusters: outputsOf(planned.render) };
  if (!planned.unheld || !planned.rollout) return { render, current };
  const unheld = { ...planned.unheld, clusters: outputsOf(planned.unheld) };
  return { render, current, rollouts: { unheld, states: planned.rollout.states } };
}

/** Returns the cluster's files as blob ids, the form a branch's files are read in. */
export function blobIdsOf(files: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...files].map(([path, text]) => [path, hashObject('blob', Buffer.from(text))]));
}

/**
 * Returns the render with each cluster that has a branch holding what its branch holds now
 * (path → text), in place of what the render would write there: the base side of a preview
 * when the hub has rendered the base commit, so the diff shows what the next pass changes.
 */
export async function withBranchFiles(
  recorded: RecordedState,
  render: RenderResult,
  current: ReadonlyMap<string, ReadonlyMap<string, string>>,
): Promise<RenderResult> {
  const clusters = new Map(render.clusters);
  for (const [cluster, output] of render.clusters) {
    const files = current.get(cluster);
    if (!files) continue;
    const texts = new Map<string, string>();
    for (const [path, oid] of files) {
      // Most files hold what the render says: only the others are read from the repository.
      const rendered = output.files.get(path);
      if (rendered !== undefined && hashObject('blob', Buffer.from(rendered)) === oid) {
        texts.set(path, rendered);
        continue;
      }
      texts.set(path, await readBlobText(recorded.read.store, oid, path));
    }
    clusters.set(cluster, { ...output, files: texts, held: new Map() });
  }
  return { ...render, clusters };
}
