// An agent for one unit test: a real bare repository for its branches, the in-memory cluster
// (fake-cluster.ts) and the fake clock, so a test drives every pass and every wait itself.
import { parseStatusBranch, type AgentReport } from '../../../src/core/status/status-branch.js';
import { createAgentMemory, type AgentMemory } from '../../../src/loops/agent/agent-memory.js';
import { localAgentRepo, statusBranchRef, type AgentRepo } from '../../../src/loops/agent/agent-repo.js';
import {
  runAgentPass,
  type AgentPassOptions,
  type AgentPassResult,
} from '../../../src/loops/agent/run-agent-pass.js';
import { readStatusFiles } from '../../../src/loops/agent/write-status-branch.js';
import { runAgentLoop, type AgentLoopOptions } from '../../../src/loops/agent/agent-loop.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { makeBareRepo, prefix } from '../../support/cluster-branch.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import { FakeCluster } from './fake-cluster.js';

export interface FakeAgent {
  cluster: string;
  gitdir: string;
  fake: FakeCluster;
  clock: FakeClock;
  memory: AgentMemory;
  options: AgentPassOptions;
  /** Runs one pass with the agent's options (and any overrides). */
  pass(overrides?: Partial<AgentPassOptions>): Promise<AgentPassResult>;
  /** Returns the report on the status branch, undefined before the first. */
  report(): Promise<AgentReport | undefined>;
  dispose(): void;
}

/** Returns an agent of cluster `m1` on a fresh fake cluster and bare repository. */
export function fakeAgent(opts: { repo?: AgentRepo; cluster?: string } = {}): FakeAgent {
  const cluster = opts.cluster ?? 'm1';
  const bare = opts.repo ? undefined : makeBareRepo();
  const repo = opts.repo ?? localAgentRepo(bare!.dir);
  const fake = new FakeCluster();
  const clock = fakeClock();
  const memory = createAgentMemory();
  const options: AgentPassOptions = {
    repo,
    client: fake,
    cluster,
    branchPrefix: prefix,
    memory,
    clock,
    identity: { name: `gitfleet agent ${cluster}`, email: `agent-${cluster}@test.invalid` },
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: false,
    concurrency: 4,
    crdTimeoutMs: 10_000,
    factsMaxAgeMs: 0,
  };
  return {
    cluster,
    gitdir: repo.gitdir,
    fake,
    clock,
    memory,
    options,
    pass: (overrides = {}) => runAgentPass({ ...options, ...overrides }),
    report: async () =>
      parseStatusBranch(await readStatusFiles(repo.gitdir, statusBranchRef(prefix, cluster))),
    dispose: () => bare?.dispose(),
  };
}

/** The loop's own settings a test may set; the rest come from the fake agent. */
export type FakeLoopSettings = Partial<
  Pick<
    AgentLoopOptions,
    | 'random'
    | 'debounceMs'
    | 'watchDrift'
    | 'exportCoalesceMs'
    | 'heartbeat'
    | 'metrics'
    | 'readiness'
    | 'pass'
    | 'triggers'
    | 'log'
  >
>;

/**
 * Starts the agent's loop on the fake agent (no triggers, jitter 0 unless given); returns each
 * pass's result as it is reported and how to stop the loop and wait for the pass in hand.
 */
export function startFakeLoop(
  agent: FakeAgent,
  settings: FakeLoopSettings = {},
): { results: AgentPassResult[]; stop: () => Promise<void> } {
  const results: AgentPassResult[] = [];
  let stop!: () => void;
  const loop = runAgentLoop({
    pass: () => agent.pass(),
    client: agent.fake,
    cluster: agent.cluster,
    memory: agent.memory,
    triggers: [],
    clock: agent.clock,
    random: () => 0,
    log: silentLogger(),
    report: (r) => results.push(r),
    stop: new Promise<void>((resolve) => (stop = resolve)),
    ...settings,
  });
  return {
    results,
    stop: async () => {
      stop();
      await loop;
    },
  };
}
