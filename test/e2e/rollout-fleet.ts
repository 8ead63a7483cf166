// The fleet, strategy and probes of the progressive-rollout end-to-end test (rollout.test.ts)
// and the rollout benchmark (bench/rollout.ts): three clusters, the Deployment shop/web
// Duplicated on all three (one replica each), and the RolloutStrategy shop/web that moves
// member1 first and member2 + member3 once member1 runs the new commit Healthy.
//
// The probes read what the processes wrote, never a clock:
//
// | probe              | reads                                                              |
// |--------------------|--------------------------------------------------------------------|
// | webOnBranch        | the Deployment file of a cluster branch (or of one of its commits) |
// | clusterCommits     | a cluster branch's commits, oldest first, with their messages      |
// | statusAt           | an agent's status commit: Gitfleet-Applied-Commit and web's health |
// | bindingsCommits    | the bindings commits, oldest first, with the cluster and status    |
// |                    | heads each names (Gitfleet-Cluster-Commit, Gitfleet-Status-Commit) |
// | rolloutRecord      | `.gitfleet/rollouts/shop/web.yaml` (kind RolloutState) at a commit |
// | liveWeb            | the Deployment on a cluster, through kubectl                       |
import yaml from 'js-yaml';
import { parseClusterTrailers } from '../../src/core/publish/cluster-commit-trailers.js';
import { parseTrailers } from '../../src/core/publish/commit-trailers.js';
import type { RolloutState } from '../../src/core/model/rollout.js';
import { parseRolloutRecord, rolloutRecordPath } from '../../src/core/rollout/rollout-record.js';
import { git } from '../git-server/git-cli.js';
import { clusterDoc } from '../support/fleet-docs.js';
import { clusterNames, kubectlOf } from './failover-fleet.js';

export { clusterNames };

/** The namespace of the fleet's workloads and of its strategy. */
export const ns = 'shop';

/** What a change of `web` sets: its image tag and, for a change that cannot become healthy, a nodeSelector. */
export interface WebSpec {
  image: string;
  nodeSelector?: Record<string, string>;
  /**
   * The Deployment's own progress deadline. Default: 10 s for a change with a nodeSelector (it
   * turns Degraded soon), 300 s for a good one. A good spec reverted to inherits the Progressing
   * condition's last update from the stuck rollout before it: with a deadline shorter than that
   * stall, the controller reports it timed out for a moment before it finds the old ReplicaSet
   * complete, and the gate fails the revert on that moment. 600: Pods that stay Pending leave it Progressing.
   */
  progressDeadlineSeconds?: number;
}

/** The strategy's settings a case changes (its steps stay member1, then member2 + member3). */
export interface StrategySpec {
  soakSeconds: number;
  onFailure: 'Halt' | 'Rollback';
}

/** A nodeSelector no node of the test clusters has: the Pods stay Pending. */
export const noSuchNode: Record<string, string> = { 'gitfleet.io/no-such-node': 'true' };

/** The image reference of a tag (both Deployments name the same image: kwok runs no container). */
export const imageOf = (tag: string) => `registry.example.com/web:${tag}`;

/**
 * The fleet: three Pull clusters, the namespace, `web` (and `plain`, when given, which no
 * strategy selects: the benchmark's baseline), their PropagationPolicy, and the strategy when given.
 */
export function rolloutFleet(
  web: WebSpec,
  strategy: StrategySpec | undefined,
  plain?: WebSpec,
): Record<string, string> {
  const names = plain ? ['web', 'plain'] : ['web'];
  return {
    'clusters.yaml': clusterNames.map(clusterDoc).join('---\n'),
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n`,
    'apps/web.yaml': deployment('web', web),
    ...(plain ? { 'apps/plain.yaml': deployment('plain', plain) } : {}),
    'apps/policy.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: ${ns}}
spec:
  resourceSelectors:
${names.map((n) => `    - {apiVersion: apps/v1, kind: Deployment, name: ${n}}`).join('\n')}
  placement:
    clusterAffinity: {clusterNames: [${clusterNames.join(', ')}]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
`,
    ...(strategy ? { 'apps/rollout.yaml': strategyDoc(strategy) } : {}),
  };
}

/** The RolloutStrategy shop/web: member1 (soak), then member2 and member3; a step fails after 25 s. */
export function strategyDoc(s: StrategySpec): string {
  return `apiVersion: gitfleet.io/v1alpha1
kind: RolloutStrategy
metadata: {name: web, namespace: ${ns}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  steps:
    - clusters: {clusterNames: [member1]}
      soakSeconds: ${s.soakSeconds}
    - clusters: {clusterNames: [member2, member3]}
  progressDeadlineSeconds: 25
  onFailure: ${s.onFailure}
`;
}

/**
 * One replica (Duplicated: one on each cluster). The Deployment's own progress deadline is
 * short by default, so Pods that stay Pending make it Degraded (ProgressDeadlineExceeded) after
 * about 10 s, before the strategy's deadline.
 */
function deployment(name: string, spec: WebSpec): string {
  const selector = spec.nodeSelector
    ? `      nodeSelector: {${Object.entries(spec.nodeSelector)
        .map(([k, v]) => `${k}: "${v}"`)
        .join(', ')}}\n`
    : '';
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${ns}}
spec:
  replicas: 1
  progressDeadlineSeconds: ${spec.progressDeadlineSeconds ?? (spec.nodeSelector ? 10 : 300)}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${selector}      containers: [{name: ${name}, image: ${imageOf(spec.image)}}]
`;
}

export const clusterRef = (cluster: string) => `refs/heads/gitfleet/clusters/${cluster}`;
export const statusRef = (cluster: string) => `refs/heads/gitfleet/status/${cluster}`;
export const bindingsRef = 'refs/heads/gitfleet/bindings';
/** The path of a Deployment of the fleet on a cluster branch and under `objects/` of a status branch. */
export const deploymentPath = (name = 'web') => `${ns}/Deployment.apps/${name}.yaml`;

/** The commit a ref or revision names, or undefined when there is none. */
export async function commitOf(repo: string, rev: string): Promise<string | undefined> {
  return git(repo, ['rev-parse', '--verify', '-q', `${rev}^{commit}`]).catch(() => undefined);
}

/** The source branch's head (the commit a case just made). */
export const sourceHead = (repo: string) => git(repo, ['rev-parse', 'HEAD']);

/** What a Deployment on a cluster branch (or live) runs: its image and nodeSelector. */
export interface WebView {
  image: string | undefined;
  nodeSelector: Record<string, string> | undefined;
}

/** Returns whether a Deployment runs that spec (the image of the tag and exactly that nodeSelector). */
export function runs(view: WebView | undefined, spec: WebSpec): boolean {
  if (!view || view.image !== imageOf(spec.image)) return false;
  return JSON.stringify(view.nodeSelector ?? {}) === JSON.stringify(spec.nodeSelector ?? {});
}

/** The Deployment `web` of a cluster branch (`rev`: one of its commits; default its head), or undefined. */
export async function webOnBranch(
  repo: string,
  cluster: string,
  rev: string = clusterRef(cluster),
  name = 'web',
): Promise<WebView | undefined> {
  const text = await git(repo, ['show', `${rev}:${deploymentPath(name)}`]).catch(() => undefined);
  return text === undefined ? undefined : viewOf(yaml.load(text));
}

function viewOf(doc: unknown): WebView {
  const d = doc as {
    spec?: {
      template?: { spec?: { nodeSelector?: Record<string, string>; containers?: { image?: string }[] } };
    };
  };
  const pod = d.spec?.template?.spec;
  return { image: pod?.containers?.[0]?.image, nodeSelector: pod?.nodeSelector };
}

/** A commit and its message. */
export interface Commit {
  sha: string;
  message: string;
}

/** The commits of a ref, oldest first (empty when it does not exist). */
export async function commitsOf(repo: string, ref: string): Promise<Commit[]> {
  const out = await git(repo, ['log', '--reverse', '--format=%H%x01%B%x00', ref]).catch(() => '');
  return out
    .split('\0')
    .map((part) => part.replace(/^\n/, ''))
    .filter((part) => part.includes('\x01'))
    .map((part) => {
      const [sha, message] = part.split('\x01') as [string, string];
      return { sha, message };
    });
}

/** A cluster branch's commits, oldest first, with what `web` is on each. */
export async function clusterCommits(
  repo: string,
  cluster: string,
): Promise<(Commit & { web: WebView | undefined })[]> {
  const commits = await commitsOf(repo, clusterRef(cluster));
  return Promise.all(commits.map(async (c) => ({ ...c, web: await webOnBranch(repo, cluster, c.sha) })));
}

/** The first commit of a cluster branch on which `web` runs `spec`, after `after` when given. */
export async function firstCommitRunning(
  repo: string,
  cluster: string,
  spec: WebSpec,
  after?: string,
): Promise<(Commit & { web: WebView | undefined; previous: WebView | undefined }) | undefined> {
  const commits = await clusterCommits(repo, cluster);
  const from = after === undefined ? 0 : commits.findIndex((c) => c.sha === after) + 1;
  for (let i = Math.max(from, 0); i < commits.length; i++) {
    if (runs(commits[i]!.web, spec)) return { ...commits[i]!, previous: commits[i - 1]?.web };
  }
  return undefined;
}

/** What one status commit of an agent says: the cluster commit it fully applied, and web's health. */
export interface StatusView {
  sha: string;
  appliedCommit: string | undefined;
  health: string | undefined;
  healthMessage: string | undefined;
}

/** Reads a status commit (`rev` default: the status branch head of the cluster). */
export async function statusAt(repo: string, rev: string, name = 'web'): Promise<StatusView | undefined> {
  const sha = await commitOf(repo, rev);
  if (sha === undefined) return undefined;
  const message = await git(repo, ['log', '-1', '--format=%B', sha]);
  const applied = parseTrailers(message).get('Gitfleet-Applied-Commit')?.[0];
  const text = await git(repo, ['show', `${sha}:objects/${deploymentPath(name)}`]).catch(() => undefined);
  const doc = (text === undefined ? {} : yaml.load(text)) as { health?: string; healthMessage?: string };
  return { sha, appliedCommit: applied, health: doc.health, healthMessage: doc.healthMessage };
}

/** Whether the cluster's agent reports its branch head applied and `name` Healthy. */
export async function appliedHealthy(repo: string, cluster: string, name = 'web'): Promise<boolean> {
  const head = await commitOf(repo, clusterRef(cluster));
  const status = await statusAt(repo, statusRef(cluster), name);
  return head !== undefined && status?.appliedCommit === head && status.health === 'Healthy';
}

/** One bindings commit: the cluster and status heads its trailers name, and its rollout lines. */
export interface BindingsCommit extends Commit {
  clusters: Map<string, string>;
  status: Map<string, string>;
  rollout: string[];
}

/** The bindings branch's commits, oldest first. */
export async function bindingsCommits(repo: string): Promise<BindingsCommit[]> {
  return (await commitsOf(repo, bindingsRef)).map((c) => {
    const trailers = parseTrailers(c.message);
    return {
      ...c,
      clusters: parseClusterTrailers(trailers.get('Gitfleet-Cluster-Commit') ?? []),
      status: parseClusterTrailers(trailers.get('Gitfleet-Status-Commit') ?? []),
      rollout: (trailers.get('Gitfleet-Rollout') ?? []).map((v) => `Gitfleet-Rollout: ${v}`),
    };
  });
}

/** The rollout record of shop/web at a bindings commit (default the head), or undefined when there is none. */
export async function rolloutRecord(
  repo: string,
  rev: string = bindingsRef,
): Promise<RolloutState | undefined> {
  const path = rolloutRecordPath({ namespace: ns, name: 'web' });
  const text = await git(repo, ['show', `${rev}:${path}`]).catch(() => undefined);
  return text === undefined ? undefined : parseRolloutRecord(text);
}

/** The record's text at the bindings head, for messages. */
export async function rolloutRecordText(repo: string): Promise<string> {
  const path = rolloutRecordPath({ namespace: ns, name: 'web' });
  return git(repo, ['show', `${bindingsRef}:${path}`]).catch(() => '(no record)');
}

/** Whether a commit id and an id as a record or trailer writes it (whole or abbreviated) are the same. */
export function sameCommit(full: string | undefined, written: string | undefined): boolean {
  return full !== undefined && written !== undefined && written.length >= 7 && full.startsWith(written);
}

/** The Deployment on a cluster (kubectl), or undefined when it has none. */
export interface LiveWeb extends WebView {
  /** status.replicas (old Pods still there count), readyReplicas, and whether the controller saw the spec. */
  replicas: number;
  ready: number;
  observed: boolean;
}

export function liveWeb(
  kube: ReturnType<typeof kubectlOf>,
  cluster: string,
  name = 'web',
): LiveWeb | undefined {
  let text: string;
  try {
    text = kube.run(cluster, ['get', 'deployment', name, '-n', ns, '-o', 'json']);
  } catch (err) {
    if (/NotFound|not found/.test(String((err as { stderr?: Buffer }).stderr ?? err))) return undefined;
    throw err;
  }
  const d = JSON.parse(text) as {
    metadata: { generation?: number };
    status?: { replicas?: number; readyReplicas?: number; observedGeneration?: number };
  };
  return {
    ...viewOf(d),
    replicas: d.status?.replicas ?? 0,
    ready: d.status?.readyReplicas ?? 0,
    observed: d.status?.observedGeneration === d.metadata.generation,
  };
}

/** Whether the live Deployment runs `spec`, its one replica ready and no old Pod left. */
export function liveRuns(
  kube: ReturnType<typeof kubectlOf>,
  cluster: string,
  spec: WebSpec,
  name = 'web',
): boolean {
  const live = liveWeb(kube, cluster, name);
  return live !== undefined && runs(live, spec) && live.observed && live.ready === 1 && live.replicas === 1;
}
