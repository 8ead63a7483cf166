// A hub and an agent run as processes, as users run them, against a real git server that wants
// a token and a real member cluster: with --metrics-addr the agent's counters move as it applies
// its branch and corrects drift; and in both --log-format text and json, not one line either
// prints (stdout or stderr) holds the Git token or the value of the Secret the agent applies,
// plain or base64, though the agent applies it, corrects its drift and reports its status.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer } from '../git-server/start-git-server.js';
import { repoRoot } from '../loops/hub/hub-fixture.js';
import { scrape, servedUrl } from '../support/scrape-metrics.js';
import { kubectl } from './agent-fixture.js';
import { eventually, uniqueName } from './test-clusters.js';

after(removeTempDirs);
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

const token = `obs-token-${randomBytes(8).toString('hex')}`;
const secretValue = `obs-secret-${randomBytes(8).toString('hex')}`;
const base64 = (text: string) => Buffer.from(text).toString('base64');
const forbidden = [token, base64(token), base64(`x-access-token:${token}`), secretValue, base64(secretValue)];

function fleetFiles(ns: string, cluster: string): Record<string, string> {
  return {
    'clusters/cluster.yaml': `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: { name: ${cluster} }\nspec: { syncMode: Pull }\n`,
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${ns} }\n`,
    'apps/db.yaml': `apiVersion: v1
kind: Secret
metadata: { name: db, namespace: ${ns} }
type: Opaque
data: { password: ${base64(secretValue)} }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: ${ns} }
data: { level: info }
`,
    'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: db, namespace: ${ns} }
spec:
  resourceSelectors:
  - { apiVersion: v1, kind: Secret, name: db }
  - { apiVersion: v1, kind: ConfigMap, name: settings }
  placement: { clusterAffinity: { clusterNames: [${cluster}] } }
`,
  };
}

/** Starts the CLI with the token in its environment, keeping every line it prints. */
function startCli(args: string[], cache: string) {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/gitfleet.js'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, GITFLEET_GIT_TOKEN: token, XDG_CACHE_HOME: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const out: string[] = [];
  const err: string[] = [];
  const collect = (into: string[]) => {
    let pending = '';
    return (chunk: Buffer) => {
      const parts = (pending + chunk.toString()).split('\n');
      pending = parts.pop() ?? '';
      into.push(...parts);
    };
  };
  child.stdout!.on('data', collect(out));
  child.stderr!.on('data', collect(err));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, out, err, exited };
}

for (const format of ['text', 'json'] as const) {
  test(
    `--log-format ${format}: the agent's metrics move as it applies and corrects a Secret, and no line shows the token or the Secret's value`,
    { timeout: 300_000 },
    async () => {
      const ns = uniqueName(`obs-${format}`);
      // A cluster name of its own: the agent's inventory (in the cluster) is no other test's.
      const cluster = uniqueName('obs');
      const root = tempDir('obs-served');
      makeServedRepo(root, 'fleet.git');
      const server = await startGitServer({ root, token });
      const url = server.url('fleet.git');
      const work = tempDir('obs-work');
      await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
      for (const [path, content] of Object.entries(fleetFiles(ns, cluster))) {
        mkdirSync(join(work, path, '..'), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      await git(work, ['add', '-A']);
      await git(work, ['commit', '-q', '-m', 'fleet with a secret']);
      await git(work, [
        '-c',
        `http.extraHeader=Authorization: Bearer ${token}`,
        'push',
        '-q',
        url,
        'HEAD:main',
      ]);
      const common = ['--interval', '1s', '--log-format', format];
      const hub = startCli(['hub', '--repo', url, ...common], tempDir('obs-hub-cache'));
      const agent = startCli(
        [
          ...['agent', '--repo', url, '--cluster', cluster, '--context', 'member1', '--no-lease'],
          ...[
            '--kubeconfig',
            process.env['GITFLEET_TEST_KUBECONFIG']!,
            '--metrics-addr',
            '127.0.0.1:0',
            ...common,
          ],
        ],
        tempDir('obs-agent-cache'),
      );
      const everything = () => [...hub.out, ...hub.err, ...agent.out, ...agent.err];
      try {
        const metricsUrl = await eventually('the agent endpoint', async () => servedUrl(agent.err));
        const c = `cluster="${cluster}"`;
        const applied = `gitfleet_agent_objects_total{outcome="applied",${c}}`;
        await eventually('the agent to apply the branch', async () =>
          (await scrape(metricsUrl)).get(applied)! >= 3 ? true : undefined,
        );
        assert.equal(
          kubectl(['get', 'secret', 'db', '-n', ns, '-o', 'jsonpath={.data.password}']),
          base64(secretValue),
        );
        const before = await scrape(metricsUrl);
        assert.ok(before.get(`gitfleet_agent_passes_total{result="applied",${c}}`)! >= 1);
        assert.ok(before.get(`gitfleet_git_fetch_duration_seconds_count{${c}}`)! >= 1, 'fetches are timed');
        assert.ok(
          before.get(`gitfleet_git_push_duration_seconds_count{${c}}`)! >= 1,
          'the status push is timed',
        );
        // Drift on the Secret: the agent corrects it, and says so, without quoting it.
        kubectl([
          'patch',
          'secret',
          'db',
          '-n',
          ns,
          '--type=merge',
          '-p',
          `{"data":{"password":"${base64('by-hand')}"}}`,
        ]);
        await eventually('the correction', async () =>
          (await scrape(metricsUrl)).get(`gitfleet_agent_drift_corrections_total{${c}}`)! >= 1
            ? true
            : undefined,
        );
        assert.equal(
          kubectl(['get', 'secret', 'db', '-n', ns, '-o', 'jsonpath={.data.password}']),
          base64(secretValue),
        );
      } finally {
        hub.child.kill('SIGTERM');
        agent.child.kill('SIGTERM');
        await Promise.all([hub.exited, agent.exited]);
        await server.close();
        kubectl(['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
      }
      const lines = everything();
      assert.ok(lines.length > 5, lines.join('\n'));
      for (const line of lines) {
        for (const value of forbidden) assert.ok(!line.includes(value), `a line shows a secret: ${line}`);
      }
      if (format === 'json') {
        for (const line of [...hub.err, ...agent.err]) {
          const record = JSON.parse(line) as Record<string, unknown>;
          assert.ok(record.speaker === 'hub' || record.cluster === cluster, line);
        }
      }
    },
  );
}
