// What a running agent prints (issue 29, "logs people can read"), the agent run as users run it:
// a process against a test cluster, following a cluster branch. Every line is stamped with RFC
// 3339 time (a report of several lines on its first, its other lines indented under it); the
// passes after the first, which find everything in place, print nothing at the default level
// and one line each at --log-level debug; --log-level warn hides the info lines and still shows
// a pass that failed. How many passes ran is read from the agent's own /metrics, never guessed
// from the time that went by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { statusBranchRef } from '../../src/loops/agent/agent-repo.js';
import { freePorts } from '../clusters/harness/free-ports.js';
import { scrape } from '../support/scrape-metrics.js';
import { assertStamped, stamp } from '../support/assert-stamped.js';
import {
  aConfigMap,
  aNamespace,
  commitClusterBranch,
  kubectl,
  makeBareRepo,
  prefix,
} from './agent-fixture.js';
import { removeAgentLeftovers, startProcess, type Process } from './lease-processes.js';
import { eventually, uniqueName } from './test-clusters.js';

const stamped = new RegExp(`^${stamp} `);

/** One agent run: its cluster, what it printed, how many passes its metrics counted, its status commits. */
interface AgentRun {
  cluster: string;
  lines: string[];
  passes: number;
  statusCommits: number;
}

/** A cluster branch of a Namespace and a ConfigMap, in a repository of its own. */
async function aBranch(): Promise<{ repo: ReturnType<typeof makeBareRepo>; cluster: string; ns: string }> {
  const repo = makeBareRepo();
  const cluster = uniqueName('loglevel');
  const ns = uniqueName('agent-log-level');
  await commitClusterBranch(repo.dir, cluster, [aNamespace(ns), aConfigMap(ns, 'one', { v: '1' })]);
  return { repo, cluster, ns };
}

/** Returns the count of `series` in the agent's metrics at `url` (0 when not counted yet). */
async function counted(url: string, series: string): Promise<number> {
  return (await scrape(url)).get(series) ?? 0;
}

/** Sends SIGTERM and waits until the process exited and its output is read to the end. */
async function stopAndDrain(agent: Process): Promise<void> {
  const closed = (s: NodeJS.ReadableStream & { closed?: boolean }) =>
    s.closed ? Promise.resolve() : new Promise<void>((resolve) => s.once('close', () => resolve()));
  await Promise.all([agent.stop('SIGTERM'), closed(agent.child.stdout!), closed(agent.child.stderr!)]);
}

/**
 * Runs `gitfleet agent` on a fresh branch at --interval 1s with `extra` flags until its metrics
 * counted `passes` applied passes; `then` runs before it is stopped (with the repository and the
 * metrics URL). Status is written once unless something changes (facts refreshed hourly).
 */
async function runAgent(opts: {
  extra: string[];
  passes: number;
  then?: (ctx: { gitdir: string; cluster: string; ns: string; metrics: string }) => Promise<void>;
}): Promise<AgentRun> {
  const { repo, cluster, ns } = await aBranch();
  const [port] = await freePorts(1);
  const metrics = `http://127.0.0.1:${port}`;
  const agent = startProcess('agent', [
    ...['agent', '--repo', repo.dir, '--cluster', cluster, '--branch-prefix', prefix],
    ...['--kubeconfig', process.env['GITFLEET_TEST_KUBECONFIG']!, '--context', 'member1'],
    ...['--interval', '1s', '--cluster-status-update-frequency', '1h', '--no-lease'],
    ...['--metrics-addr', `127.0.0.1:${port}`, ...opts.extra],
  ]);
  try {
    const applied = `gitfleet_agent_passes_total{result="applied",cluster="${cluster}"}`;
    // A probe that throws is tried again: an agent that exited answers instead, and fails the run.
    const passes = await eventually(`${opts.passes} applied passes`, async () => {
      if (!agent.running()) return -1;
      const n = await counted(metrics, applied);
      return n >= opts.passes ? n : undefined;
    });
    if (passes < 0) assert.fail(`the agent exited:\n${agent.output()}`);
    await opts.then?.({ gitdir: repo.dir, cluster, ns, metrics });
    await stopAndDrain(agent);
    const statusCommits = Number(
      execFileSync('git', ['--git-dir', repo.dir, 'rev-list', '--count', statusBranchRef(prefix, cluster)], {
        encoding: 'utf8',
      }).trim(),
    );
    return { cluster, lines: agent.lines().map((l) => l.text), passes, statusCommits };
  } finally {
    await agent.stop('SIGKILL');
    repo.dispose();
    removeAgentLeftovers(cluster, ns);
  }
}

/** The lines of the agent's pass reports (the first line of each). */
function passLines(run: AgentRun): string[] {
  return run.lines.filter((l) => new RegExp(`^${stamp} agent ${run.cluster}: (partly )?applied `).test(l));
}

test('at the default level an agent stamps every line and prints its first pass, and nothing of the passes that found everything in place', async () => {
  const run = await runAgent({ extra: [], passes: 4 });
  const all = run.lines.join('\n');
  assertStamped(run.lines);
  const reports = passLines(run);
  assert.match(
    reports[0] ?? '',
    new RegExp(
      `^${stamp} agent ${run.cluster}: applied [0-9a-f]{7}: 2 objects \\(2 created\\), pruned 0 in \\d+ ms; \\d+ writes; status written$`,
    ),
    all,
  );
  // Each pass that wrote status is reported (the first); the three or more after it printed nothing.
  assert.equal(reports.length, run.statusCommits, all);
  assert.ok(run.passes - run.statusCommits >= 3, `${run.passes} passes, ${run.statusCommits} status commits`);
  assert.ok(!run.lines.some((l) => /unchanged|debug: /.test(l)), all);
  assert.ok(
    run.lines.some((l) => new RegExp(`^${stamp} agent ${run.cluster}: serving /metrics`).test(l)),
    all,
  );
  assert.match(run.lines.at(-1) ?? '', new RegExp(`^${stamp} agent ${run.cluster}: stopped$`), all);
});

test('at --log-level debug each pass that found everything in place is one stamped line', async () => {
  const run = await runAgent({ extra: ['--log-level', 'debug'], passes: 4 });
  const all = run.lines.join('\n');
  assertStamped(run.lines);
  const quiet = new RegExp(
    `^${stamp} agent ${run.cluster}: applied [0-9a-f]{7}: 2 objects \\(2 unchanged\\), pruned 0 in \\d+ ms$`,
  );
  const reports = passLines(run);
  const unchanged = reports.filter((l) => quiet.test(l));
  // Every pass is reported: the ones that wrote status in full, the others in one line each.
  assert.equal(reports.length - unchanged.length, run.statusCommits, all);
  assert.ok(reports.length >= run.passes, `${run.passes} passes counted before the stop:\n${all}`);
  assert.ok(unchanged.length >= 3, all);
  for (const line of unchanged) {
    const next = run.lines[run.lines.indexOf(line) + 1] ?? '';
    assert.ok(!/^ {2}/.test(next), `a quiet pass printed more than a line:\n${all}`);
  }
});

test('at --log-level warn an agent prints none of its info lines, and still a pass that failed', async () => {
  const run = await runAgent({
    extra: ['--log-level', 'warn'],
    passes: 3,
    then: async ({ gitdir, cluster, ns, metrics }) => {
      assert.equal(kubectl(['get', 'configmap', 'one', '-n', ns, '-o', 'jsonpath={.data.v}']), '1');
      const refused = aConfigMap(ns, 'Not_A_Name', { v: '2' });
      const objects = [aNamespace(ns), aConfigMap(ns, 'one', { v: '1' }), refused];
      await commitClusterBranch(gitdir, cluster, objects, 'render: a name the API server refuses\n');
      const partly = `gitfleet_agent_passes_total{result="partlyApplied",cluster="${cluster}"}`;
      await eventually('a pass that failed in part', async () =>
        (await counted(metrics, partly)) >= 1 ? true : undefined,
      );
    },
  });
  const all = run.lines.join('\n');
  assertStamped(run.lines);
  // Three passes applied the branch, the agent served metrics and stopped: not a line of that.
  // The pass that failed in part is all it printed, with the object it could not apply.
  const reports = passLines(run);
  assert.equal(reports.length, 1, all);
  assert.match(
    reports[0]!,
    new RegExp(`^${stamp} agent ${run.cluster}: partly applied [0-9a-f]{7}: 3 objects \\(`),
    all,
  );
  assert.deepEqual(
    run.lines.filter((l) => stamped.test(l)),
    reports,
    all,
  );
  assert.ok(
    run.lines.some((l) => /Not_A_Name/.test(l)),
    all,
  );
});
