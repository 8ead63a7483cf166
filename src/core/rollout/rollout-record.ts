// The record of one rollout on the bindings branch (docs/rollout.md#the-record):
//
//   .gitfleet/rollouts/<namespace>/<name>.yaml     a RolloutStrategy's rollout
//   .gitfleet/rollouts/_cluster/<name>.yaml        a ClusterRolloutStrategy's
//
// kind RolloutState (gitfleet.io/v1alpha1): the revision rolled out, the phase, the step in
// progress and when it started, since when it has been Healthy, and every cluster's step, state,
// source commit and last good cluster-branch commit. A record that does not parse is treated as
// no record (the rollout starts again from step 1), never as a reason to move a cluster.
import yaml from 'js-yaml';
import { emitYaml } from '../format/emit-yaml.js';
import { isMap } from '../model/kube-object.js';
import { parseTime } from '../model/rfc3339.js';
import type {
  RolloutClusterState,
  RolloutPhase,
  RolloutState,
  RolloutStrategyKind,
} from '../model/rollout.js';

/** The directory of the bindings branch that holds the rollout records. */
export const rolloutDir = '.gitfleet/rollouts/';

/** Returns the record path of a strategy's rollout. */
export function rolloutRecordPath(s: { namespace: string; name: string }): string {
  return `${rolloutDir}${s.namespace || '_cluster'}/${s.name}.yaml`;
}

const phases: readonly RolloutPhase[] = [
  'Progressing',
  'WaitingApproval',
  'Halted',
  'RolledBack',
  'Complete',
];
const clusterStates: readonly RolloutClusterState['state'][] = ['Held', 'Moved', 'RolledBack'];

/** Returns the canonical text of a rollout record. */
export function rolloutRecordText(state: RolloutState): string {
  const { strategy } = state;
  return emitYaml({
    apiVersion: 'gitfleet.io/v1alpha1',
    kind: 'RolloutState',
    metadata: { name: strategy.name, ...(strategy.namespace ? { namespace: strategy.namespace } : {}) },
    strategyKind: strategy.kind,
    revision: state.revision,
    source: state.source,
    phase: state.phase,
    step: state.step,
    steps: state.steps,
    stepStartedAt: state.stepStartedAt,
    ...(state.healthySince ? { healthySince: state.healthySince } : {}),
    ...(state.message ? { message: state.message } : {}),
    digests: state.digests,
    ...(state.newObjects && state.newObjects.length > 0 ? { newObjects: state.newObjects } : {}),
    ...(state.objects && state.objects.length > 0 ? { objects: state.objects } : {}),
    clusters: state.clusters.map((c) => ({
      name: c.name,
      step: c.step,
      state: c.state,
      ...(c.commit ? { commit: c.commit } : {}),
      ...(c.lastGood ? { lastGood: c.lastGood } : {}),
      ...(c.lastGoodCommit ? { lastGoodCommit: c.lastGoodCommit } : {}),
      ...(c.message ? { message: c.message } : {}),
    })),
  });
}

/** Returns the rollout a record holds, or undefined when it is not a well-formed record. */
export function parseRolloutRecord(text: string): RolloutState | undefined {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!isMap(doc) || doc.kind !== 'RolloutState' || !isMap(doc.metadata)) return undefined;
  const { metadata } = doc;
  const kind = doc.strategyKind;
  if (kind !== 'RolloutStrategy' && kind !== 'ClusterRolloutStrategy') return undefined;
  const name = metadata.name;
  const namespace = metadata.namespace ?? '';
  if (typeof name !== 'string' || typeof namespace !== 'string') return undefined;
  const { revision, source, phase, step, steps, stepStartedAt, healthySince, message } = doc;
  if (typeof revision !== 'string' || typeof source !== 'string') return undefined;
  if (!phases.includes(phase as RolloutPhase)) return undefined;
  if (!isCount(step) || !isCount(steps)) return undefined;
  if (typeof stepStartedAt !== 'string' || parseTime(stepStartedAt) === undefined) return undefined;
  if (
    healthySince !== undefined &&
    (typeof healthySince !== 'string' || parseTime(healthySince) === undefined)
  )
    return undefined;
  const digests = readDigests(doc.digests);
  const clusters = readClusters(doc.clusters);
  const newObjects = doc.newObjects ?? [];
  const objects = doc.objects ?? [];
  if (digests === undefined || clusters === undefined) return undefined;
  if (!isPathList(newObjects) || !isPathList(objects)) return undefined;
  return {
    strategy: { kind: kind as RolloutStrategyKind, namespace, name },
    revision,
    source,
    phase: phase as RolloutPhase,
    step: step as number,
    steps: steps as number,
    stepStartedAt,
    ...(typeof healthySince === 'string' ? { healthySince } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    digests,
    ...(newObjects.length > 0 ? { newObjects } : {}),
    ...(objects.length > 0 ? { objects } : {}),
    clusters,
  };
}

function isPathList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((p) => typeof p === 'string');
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

function readDigests(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return {};
  if (!isMap(value)) return undefined;
  const digests: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') return undefined;
    digests[k] = v;
  }
  return digests;
}

function readClusters(value: unknown): RolloutClusterState[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const clusters: RolloutClusterState[] = [];
  for (const item of value) {
    if (!isMap(item) || typeof item.name !== 'string' || !isCount(item.step)) return undefined;
    if (!clusterStates.includes(item.state as RolloutClusterState['state'])) return undefined;
    const optional = (v: unknown): v is string => typeof v === 'string';
    clusters.push({
      name: item.name,
      step: item.step,
      state: item.state as RolloutClusterState['state'],
      ...(optional(item.commit) ? { commit: item.commit } : {}),
      ...(optional(item.lastGood) ? { lastGood: item.lastGood } : {}),
      ...(optional(item.lastGoodCommit) ? { lastGoodCommit: item.lastGoodCommit } : {}),
      ...(optional(item.message) ? { message: item.message } : {}),
    });
  }
  return clusters;
}
