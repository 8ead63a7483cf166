// Scenario apply: the agent's first apply and no-op pass against `kubectl apply --server-side`
// of the same objects, on a test cluster. bench/agent-apply.js (its own engineer's benchmark)
// times both sides and counts the agent's requests; this starts a test cluster when none is
// given, runs it, and counts kubectl's mutating requests in its no-op pass from the API
// server's metrics (kubectl does not count them itself).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTestClusters } from '../test/clusters/harness/with-test-clusters.js';
import {
  metricsTargetFromKubeconfig,
  mutatingRequestsBetween,
  scrapeRequestCounts,
} from './lib/count-mutating-requests.js';
import {
  contender,
  ratioOf,
  skipped,
  type ContenderResult,
  type Scenario,
  type ScenarioReport,
} from './lib/report.js';
import { runTimed } from './lib/run-timed.js';
import { spread } from './lib/stats.js';

const agentApply = fileURLToPath(new URL('./agent-apply.js', import.meta.url));

/** The part of agent-apply.js's JSON this reads. */
interface AgentApplyReport {
  rounds: {
    kubectl: { firstMs: number; noopMs: number };
    agent: {
      firstMs: number;
      noopMs: number;
      first: { mutating: number; dryRun: number };
      noop: { mutating: number; dryRun: number; total: number };
      fullyApplied: boolean;
    };
  }[];
}

/** The apply scenario: the agent against kubectl apply --server-side, first apply and no-op. */
export const applyScenario: Scenario = applyAt({
  name: 'apply',
  summary: 'agent first apply and no-op pass vs kubectl apply --server-side (test cluster)',
  full: { objects: 1000, deployments: 50 },
  quick: { objects: 200, deployments: 10 },
});

/** The same at 10,000 objects on one cluster (issue 18): fewer rounds, each takes minutes. */
export const apply10kScenario: Scenario = applyAt({
  name: 'apply-10k',
  summary: 'the apply scenario at 10,000 objects on one cluster (2 rounds; --quick: 2,000)',
  full: { objects: 10_000, deployments: 100 },
  quick: { objects: 2000, deployments: 20 },
  runs: 2,
});

function applyAt(opts: {
  name: string;
  summary: string;
  full: { objects: number; deployments: number };
  quick: { objects: number; deployments: number };
  runs?: number;
}): Scenario {
  return {
    name: opts.name,
    summary: opts.summary,
    run: async (run): Promise<ScenarioReport> => {
      const shape = run.quick ? opts.quick : opts.full;
      if (!existsSync(agentApply))
        return skipped(opts.name, 'bench/agent-apply.ts is not there (yet)', shape);
      const given = process.env['GITFLEET_TEST_KUBECONFIG'] && process.env['GITFLEET_K8S_BIN'];
      const measure = async (env: Record<string, string>) => ({
        ...(await measureApply({
          env,
          shape,
          runs: Math.min(run.runs, opts.runs ?? run.runs),
          log: run.log,
        })),
        scenario: opts.name,
      });
      // Without controllers: nothing else writes to the server, so its request counts are the benchmark's.
      return given ? measure({}) : withTestClusters({ count: 1, controllers: false }, measure);
    },
  };
}

async function measureApply(opts: {
  env: Record<string, string>;
  shape: { objects: number; deployments: number };
  runs: number;
  log: (line: string) => void;
}): Promise<ScenarioReport> {
  const env = { ...process.env, ...opts.env };
  opts.log(`apply: ${opts.shape.objects} objects, bench/agent-apply.js --rounds ${opts.runs}`);
  const run = await runTimed({
    command: process.execPath,
    args: [
      agentApply,
      '--objects',
      `${opts.shape.objects}`,
      '--deployments',
      `${opts.shape.deployments}`,
      '--rounds',
      `${opts.runs}`,
      '--json',
    ],
    env,
  });
  const { rounds } = JSON.parse(run.stdout) as AgentApplyReport;
  const kubectlRequests = countKubectlRequests({ env, ...opts.shape });
  const series = (
    name: string,
    side: ContenderResult['side'],
    pick: (r: AgentApplyReport['rounds'][number]) => number,
  ): ContenderResult => ({
    name,
    side,
    ...spread(rounds.map(pick)),
    peakRssMiB: null,
  });
  const results = [
    series('agent pass, first apply', 'gitfleet', (r) => r.agent.firstMs),
    series('kubectl apply --server-side, first apply', 'alternative', (r) => r.kubectl.firstMs),
    series('agent pass, nothing new', 'gitfleet', (r) => r.agent.noopMs),
    series('kubectl apply --server-side, nothing new', 'alternative', (r) => r.kubectl.noopMs),
  ];
  const pair = (label: string, i: number, j: number) =>
    ratioOf({
      label,
      gitfleet: contender(results, results[i]!.name),
      alternative: contender(results, results[j]!.name),
    });
  return {
    scenario: 'apply',
    status: 'ran',
    note: "rounds alternate which side goes first, in bench/agent-apply.js's process, each side in its own namespace; details.rounds has each side's CPU (agent, kubectl, apiserver, etcd) and the agent's requests in flight",
    parameters: {
      ...opts.shape,
      source: 'bench/agent-apply.js',
      cluster: opts.env['GITFLEET_TEST_KUBECONFIG'] ? 'started for the run' : 'given',
    },
    contenders: results,
    ratios: [pair('first apply', 0, 1), pair('no-op pass', 2, 3)],
    details: {
      mutatingRequests: {
        agent: {
          first: rounds.map((r) => r.agent.first.mutating),
          noop: rounds.map((r) => r.agent.noop.mutating),
        },
        agentDryRun: {
          first: rounds.map((r) => r.agent.first.dryRun),
          noop: rounds.map((r) => r.agent.noop.dryRun),
        },
        kubectl: await kubectlRequests,
      },
      agentFullyApplied: rounds.every((r) => r.agent.fullyApplied),
      rounds,
    },
  };
}

/** Returns kubectl's mutating requests (server-side apply counts as APPLY) in a first apply and a no-op apply. */
async function countKubectlRequests(opts: { env: NodeJS.ProcessEnv; objects: number; deployments: number }) {
  const kubeconfig = opts.env['GITFLEET_TEST_KUBECONFIG']!;
  const kubectl = join(opts.env['GITFLEET_K8S_BIN']!, 'kubectl');
  const target = metricsTargetFromKubeconfig(kubeconfig);
  const namespace = `bench-kubectl-count-${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-apply-'));
  const file = join(dir, 'all.yaml');
  writeFileSync(file, manifests(namespace, opts.objects, opts.deployments));
  const apply = () =>
    execFileSync(
      kubectl,
      ['--kubeconfig', kubeconfig, 'apply', '--server-side', '--field-manager=bench', '-f', file],
      { stdio: 'ignore' },
    );
  const resources = ['namespaces', 'configmaps', 'deployments'];
  try {
    const before = await scrapeRequestCounts(target);
    apply();
    const between = await scrapeRequestCounts(target);
    apply();
    const after = await scrapeRequestCounts(target);
    return {
      first: mutatingRequestsBetween(before, between, { resources }),
      noop: mutatingRequestsBetween(between, after, { resources }),
      counted:
        'apiserver_request_total, verbs POST|PUT|PATCH|APPLY|DELETE on namespaces, configmaps, deployments; dry runs (dry_run label) apart',
    };
  } finally {
    execFileSync(kubectl, ['--kubeconfig', kubeconfig, 'delete', 'namespace', namespace, '--wait=false'], {
      stdio: 'ignore',
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Namespace, `deployments` Deployments and ConfigMaps up to `objects`, as agent-apply.js applies. */
function manifests(namespace: string, objects: number, deployments: number): string {
  const docs = [`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${namespace}\n`];
  for (let i = 0; i < objects; i++) {
    const name = `obj-${String(i).padStart(4, '0')}`;
    docs.push(
      i < deployments
        ? `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  labels: {app: ${name}}\n` +
            `spec:\n  replicas: 1\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n` +
            `    spec: {containers: [{name: app, image: "registry.invalid/app:1"}]}\n`
        : `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n  index: "${i}"\n  text: ${'x'.repeat(200)}\n`,
    );
  }
  return docs.join('---\n');
}
