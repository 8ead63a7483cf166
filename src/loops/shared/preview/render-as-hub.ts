// One side of a preview rendered the way a hub pass renders it (hub/plan-pass-render.ts) on
// the recorded state, with each registered cluster's output as the pass commits it to the
// cluster branch: the render plus the hub's own `.gitfleet/` files (plan-pass-writes.ts).
import { hashObject } from '../../../adapters/git/hash-object.js';
import type { Fleet } from '../../../core/model/fleet.js';
import { providedServices } from '../../../core/mcs/provider-exports.js';
import type { ClusterOutput } from '../../../core/render/cluster-output.js';
import type { RenderResult } from '../../../core/render/render-fleet.js';
import { defaultHubFailover } from '../../hub/hub-failover.js';
import { planPassRender } from '../../hub/plan-pass-render.js';
import { clusterBranchOutput } from '../../hub/plan-pass-writes.js';
import { readCommitFiles } from '../../hub/read-git-state.js';
import type { RecordedState } from './read-recorded-state.js';

/** A side rendered as the hub would, and the files each cluster branch holds now (path → blob id). */
export interface HubRender {
  render: RenderResult;
  /** Per cluster with a branch: its current files, path → blob id. */
  current: Map<string, ReadonlyMap<string, string>>;
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
  const clusters = new Map<string, ClusterOutput>();
  for (const [cluster, rendered] of planned.render.clusters) {
    const output = clusterBranchOutput({
      fleet,
      rendered,
      provided: provided.get(cluster) ?? [],
      current: current.get(cluster) ?? new Map(),
    });
    clusters.set(cluster, output);
  }
  return { render: { ...planned.render, clusters }, current };
}

/** Returns the cluster's files as blob ids, the form a branch's files are read in. */
export function blobIdsOf(files: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...files].map(([path, text]) => [path, hashObject('blob', Buffer.from(text))]));
}
