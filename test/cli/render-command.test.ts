import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  mkdirSync,
  appendFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runCli } from './run-cli.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');
const example = join(repoRoot, 'examples/fleet-repo');
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

function exampleRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-cli-'));
  cpSync(example, join(dir, 'fleet'), { recursive: true });
  const repo = join(dir, 'fleet');
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: repo, env: gitEnv });
  execFileSync('git', ['add', '-A'], { cwd: repo, env: gitEnv });
  execFileSync('git', ['commit', '-qm', 'fleet'], { cwd: repo, env: gitEnv });
  return repo;
}

function readTree(dir: string): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else tree.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return tree;
}

test('rendering from a directory and from a git commit gives byte-identical trees, twice', async () => {
  const repo = exampleRepo();
  const outs = ['a', 'b', 'c'].map((n) => join(repo, '..', `out-${n}`));
  assert.equal((await runCli(['render', repo, '--out', outs[0]!])).code, 0);
  assert.equal((await runCli(['render', repo, '--ref', 'main', '--out', outs[1]!])).code, 0);
  assert.equal((await runCli(['render', repo, '--ref', 'HEAD', '--out', outs[2]!])).code, 0);
  const [a, b, c] = outs.map(readTree);
  assert.ok(a!.size > 40, `the example renders many files (${a!.size})`);
  assert.deepEqual(a, b);
  assert.deepEqual(b, c);
});

test('the summary names every cluster and its object count; JSON output carries the same', async () => {
  const repo = exampleRepo();
  const out = join(repo, '..', 'out');
  const text = await runCli(['render', repo, '--out', out]);
  assert.match(text.stdout, /aws-eu-prod\s+15 objects/);
  assert.match(text.stdout, /onprem-gpu\s+6 objects/);
  const json = await runCli(['render', repo, '--out', out, '--output', 'json']);
  const summary = JSON.parse(json.stdout);
  assert.equal(summary.clusters['gcp-eu-staging'].objects, 10);
  assert.equal(summary.stats.templates, 19);
  assert.deepEqual(summary.diagnostics, []);
});

test('a cluster directory holds only rendered objects, and stale files are removed on the next render', async () => {
  const repo = exampleRepo();
  const out = join(repo, '..', 'out');
  await runCli(['render', repo, '--out', out]);
  const stale = join(out, 'aws-eu-prod', 'shop', 'ConfigMap', 'stale.yaml');
  writeFileSync(stale, 'x');
  await runCli(['render', repo, '--out', out]);
  assert.equal(existsSync(stale), false);
  for (const path of readTree(out).keys()) {
    if (path === '.gitfleet-render') continue;
    assert.match(path, /^[a-z0-9-]+\/(_cluster|[a-z0-9-]+)\/[A-Za-z]+(\.[a-z0-9.-]+)?\/[^/]+\.yaml$/, path);
  }
});

test('a load error exits 1, names the file, line and column, and writes nothing', async () => {
  const repo = exampleRepo();
  writeFileSync(
    join(repo, 'apps/broken.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n   bad: indent\n',
  );
  const out = join(repo, '..', 'out');
  const run = await runCli(['render', repo, '--out', out]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /apps\/broken\.yaml#0:5:\d+/);
  assert.equal(existsSync(out), false);
});

test('render refuses to write into a non-empty directory it did not create', async () => {
  const repo = exampleRepo();
  const out = join(repo, '..', 'precious');
  mkdirSync(out);
  writeFileSync(join(out, 'notes.txt'), 'keep me');
  const run = await runCli(['render', repo, '--out', out]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /not written by gitfleet render/);
  assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'keep me');
});

test('validate exits 0 on the example and 1 when an object fits no cluster', async () => {
  const repo = exampleRepo();
  assert.equal((await runCli(['validate', repo])).code, 0);
  appendFileSync(
    join(repo, 'apps/shop/web.yaml'),
    '---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: orphan, namespace: shop }\n---\n' +
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: { name: orphan, namespace: shop }\n' +
      'spec:\n  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: orphan }]\n' +
      '  placement: { clusterAffinity: { clusterNames: [no-such-cluster] } }\n',
  );
  const run = await runCli(['validate', repo, '--output', 'json']);
  assert.equal(run.code, 1);
  const report = JSON.parse(run.stdout);
  assert.equal(report.valid, false);
  assert.ok(
    report.diagnostics.some(
      (d: { code: string; subject: string }) =>
        d.code === 'NoClusterFit' && d.subject === 'ConfigMap/shop/orphan',
    ),
  );
});

test('usage errors exit 2', async () => {
  assert.equal((await runCli(['render', 'x'])).code, 2);
  assert.equal((await runCli(['frobnicate'])).code, 2);
  assert.equal((await runCli(['render', 'x', '--out', 'y', '--output', 'xml'])).code, 2);
});

test('render --watch re-renders on save and prints what changed', { timeout: 180_000 }, async () => {
  const repo = exampleRepo();
  const out = join(repo, '..', 'out');
  const child = spawn(process.execPath, [
    join(repoRoot, 'bin/gitfleet.js'),
    'render',
    repo,
    '--watch',
    '--out',
    out,
  ]);
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d.toString()));
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (pattern.test(stdout)) {
          clearInterval(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`watch exited: ${stdout}`));
        }
      }, 50);
    });
  try {
    await waitFor(/watching/);
    const web = join(repo, 'apps/shop/web.yaml');
    writeFileSync(web, readFileSync(web, 'utf8').replace('replicas: 10', 'replicas: 12'));
    await waitFor(/changed\s+aws-eu-prod\/shop\/Deployment\.apps\/web\.yaml/);
    assert.match(readFileSync(join(out, 'aws-eu-prod/shop/Deployment.apps/web.yaml'), 'utf8'), /replicas: 6/);
  } finally {
    child.kill('SIGTERM');
  }
});

test('render --ref takes any revision naming a commit: main~1 renders the commit before, as its id does', async () => {
  const repo = exampleRepo();
  const first = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, env: gitEnv }).toString().trim();
  execFileSync('git', ['tag', '-a', '-m', 'first', 'v1'], { cwd: repo, env: gitEnv });
  execFileSync('git', ['rm', '-q', '-r', 'apps'], { cwd: repo, env: gitEnv });
  execFileSync('git', ['commit', '-qm', 'no apps'], { cwd: repo, env: gitEnv });
  const outs = ['by-id', 'tilde', 'caret', 'peeled', 'search', 'head'].map((n) => join(repo, '..', n));
  const refs = [first, 'main~1', 'HEAD^', 'v1^{commit}', ':/^fleet', 'HEAD'];
  for (const [i, ref] of refs.entries()) {
    const run = await runCli(['render', repo, '--ref', ref, '--out', outs[i]!]);
    assert.equal(run.code, 0, `${ref}: ${run.stderr}`);
  }
  const [byId, ...rest] = outs.map(readTree);
  for (const tree of rest.slice(0, 4)) assert.deepEqual(tree, byId);
  assert.notDeepEqual(rest[4], byId, 'HEAD (without the apps) renders differently');
  const bad = await runCli(['render', repo, '--ref', 'HEAD~5', '--out', join(repo, '..', 'bad')]);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /revision 'HEAD~5' in .*: names no commit \(.* has no parent/);
});
