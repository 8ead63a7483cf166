// `hub` and `agent` with --metrics-addr, run as users run them (child processes): the endpoint
// answers while the loop runs, the counters move, `--log-format json` gives one parsable object
// per stderr line, and SIGTERM ends the process with exit 0 even while a scraper holds a
// keep-alive connection open. A port in use stops the command at startup, naming the flag.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitChange, exampleFleetRepo, removeFleetRepos, repoRoot } from '../loops/hub/hub-fixture.js';
import { makeBareRepo } from '../support/cluster-branch.js';
import { eventually } from '../support/eventually.js';
import { httpGet, scrape, servedUrl } from '../support/scrape-metrics.js';
import { runCli } from './run-cli.js';

after(removeFleetRepos);
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts the CLI as a child process, collecting its stderr lines. */
function startCli(args: string[]) {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/gitfleet.js'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: string[] = [];
  let pending = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, lines, exited };
}

/** Opens a keep-alive connection to `url` and leaves it open. */
async function holdConnection(url: string): Promise<Agent> {
  const agent = new Agent({ keepAlive: true });
  await new Promise<void>((resolve, reject) => {
    const req = request(`${url}/healthz`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end();
  });
  return agent;
}

test(
  'hub --metrics-addr --log-format json: ready after its first pass, counts it, logs JSON lines, and exits 0 on SIGTERM',
  { timeout: 60_000 },
  async () => {
    const repo = exampleFleetRepo({ bare: true });
    const run = startCli([
      ...['hub', '--repo', repo.path, '--interval', '1h'],
      ...['--metrics-addr', '127.0.0.1:0', '--log-format', 'json'],
    ]);
    await eventually(() => servedUrl(run.lines) !== undefined, 'the endpoint', 30_000);
    const url = servedUrl(run.lines)!;
    await eventually(() => run.lines.some((l) => l.includes('watching')), 'the loop', 30_000);
    let samples = new Map<string, number>();
    for (let i = 0; i < 300 && samples.get('gitfleet_hub_passes_total{result="rendered"}') !== 1; i++) {
      samples = await scrape(url);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(samples.get('gitfleet_hub_passes_total{result="rendered"}'), 1);
    assert.equal((await httpGet(`${url}/readyz`)).status, 200);
    assert.ok((samples.get('gitfleet_process_resident_memory_bytes') ?? 0) > 0, 'process metrics');
    // A source that does not load: what the text format prints on stderr is an error record.
    commitChange(repo, 'bad yaml', (work) =>
      writeFileSync(join(work, 'apps/bad.yaml'), 'kind: ConfigMap\n  bad: x\n'),
    );
    await eventually(() => run.lines.some((l) => l.includes('does not load')), 'the failing pass', 30_000);
    const agent = await holdConnection(url);
    run.child.kill('SIGTERM');
    const { code, signal } = await run.exited;
    agent.destroy();
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, run.lines.join('\n'));
    const failed = run.lines
      .map((l) => JSON.parse(l) as { level: string; message: string })
      .filter((r) => /does not load/.test(r.message));
    assert.equal(failed[0]?.level, 'error');
    assert.match(failed[0]?.message ?? '', /^refs\/heads\/main [0-9a-f]{7} \(bad yaml\) does not load/);
    assert.ok(run.lines.length >= 4, run.lines.join('\n'));
    for (const line of run.lines) {
      const record = JSON.parse(line) as Record<string, unknown>;
      assert.equal(record.speaker, 'hub', line);
      assert.match(String(record.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, line);
      assert.ok(['info', 'warning', 'error'].includes(String(record.level)), line);
      assert.equal(typeof record.message, 'string', line);
    }
    assert.ok(run.lines.some((l) => JSON.parse(l).message === 'stopped'));
    await assert.rejects(httpGet(`${url}/healthz`), /ECONNREFUSED/, 'the endpoint closed with the process');
  },
);

test(
  'agent --metrics-addr --log-format json: ready after its first pass, counts it, logs JSON lines, and exits 0 on SIGTERM',
  { timeout: 60_000 },
  async (t) => {
    const bare = makeBareRepo();
    const dir = mkdtempSync(join(tmpdir(), 'gitfleet-kube-'));
    t.after(() => {
      bare.dispose();
      rmSync(dir, { recursive: true, force: true });
    });
    // A cluster nothing listens on: the agent's passes find it unreachable, and say so.
    const kubeconfig = join(dir, 'config');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
      ].join('\n'),
    );
    const run = startCli([
      ...['agent', '--repo', bare.dir, '--cluster', 'member1', '--kubeconfig', kubeconfig, '--no-lease'],
      ...['--interval', '1h', '--metrics-addr', ':0', '--log-format', 'json'],
    ]);
    await eventually(() => servedUrl(run.lines) !== undefined, 'the endpoint', 30_000);
    const url = servedUrl(run.lines)!;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/, 'no host given: 127.0.0.1');
    let passes = 0;
    for (let i = 0; i < 300 && passes === 0; i++) {
      const samples = await scrape(url);
      passes = [...samples]
        .filter(([k]) => k.startsWith('gitfleet_agent_passes_total{'))
        .reduce((n, [, v]) => n + v, 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(passes >= 1, run.lines.join('\n'));
    assert.equal((await httpGet(`${url}/readyz`)).status, 200);
    const agent = await holdConnection(url);
    run.child.kill('SIGTERM');
    const { code, signal } = await run.exited;
    agent.destroy();
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, run.lines.join('\n'));
    const records = run.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(
      records.every((r) => r.speaker === 'agent' && r.cluster === 'member1'),
      run.lines.join('\n'),
    );
    assert.ok(records.some((r) => r.message === 'stopped'));
    // The pass that found no branch is an error record (stderr in text), not a block of text.
    assert.ok(
      records.some(
        (r) => r.level === 'error' && /no cluster branch yet; nothing applied/.test(String(r.message)),
      ),
      run.lines.join('\n'),
    );
  },
);

test('hub --metrics-addr on a port in use stops at startup, naming the flag and the address', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as AddressInfo;
  try {
    const run = await runCli(['hub', '--repo', repo.path, '--metrics-addr', `127.0.0.1:${port}`]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, new RegExp(`--metrics-addr 127\\.0\\.0\\.1:${port}: the address is in use`));
    assert.doesNotMatch(run.stderr, /watching/, 'the loop never started');
  } finally {
    holder.close();
  }
});

test(
  'hub with its doorbell open and --metrics-addr on a port in use exits 1: the doorbell, lease client and notifier are closed',
  { timeout: 60_000 },
  async () => {
    const repo = exampleFleetRepo({ bare: true });
    const dir = mkdtempSync(join(tmpdir(), 'gitfleet-metrics-doorbell-'));
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      writeFileSync(join(dir, 'tokens.yaml'), 'aws-eu-prod: a-token-of-forty-characters-or-so-0123456789\n');
      const run = startCli([
        ...['hub', '--repo', repo.path, '--metrics-addr', `127.0.0.1:${port}`],
        ...['--notify-addr', '127.0.0.1:0', '--notify-tokens', join(dir, 'tokens.yaml')],
      ]);
      // Before the fix the listening doorbell kept the process alive: the test timed out here.
      const { code } = await run.exited;
      assert.equal(code, 1, run.lines.join('\n'));
      assert.ok(run.lines.some((l) => l.includes(`--metrics-addr 127.0.0.1:${port}: the address is in use`)));
    } finally {
      holder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('--metrics-addr that is not HOST:PORT is a usage error', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const run = await runCli(['hub', '--repo', repo.path, '--metrics-addr', 'nine']);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--metrics-addr must be HOST:PORT/);
});
