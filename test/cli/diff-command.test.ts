import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cleanup, git, initRepo, tempDir, writeFiles } from '../adapters/source/git-fixture.js';
import { runCli } from './run-cli.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');
const example = join(repoRoot, 'examples/fleet-repo');
after(cleanup);

function commit(repo: string, message: string): string {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
  return git(repo, 'rev-parse', 'HEAD');
}

function edit(repo: string, path: string, from: string, to: string): void {
  const file = join(repo, path);
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${path} holds '${from}'`);
  writeFileSync(file, text.replace(from, to));
}

/** The example fleet, then a second commit: web scaled from 10 to 12, the us-east-1 mirror renamed. */
function changedExample(): { repo: string; base: string; head: string } {
  const repo = initRepo();
  cpSync(example, repo, { recursive: true });
  const base = commit(repo, 'fleet');
  edit(repo, 'apps/shop/web.yaml', 'replicas: 10', 'replicas: 12');
  edit(
    repo,
    'overrides/registry-mirrors.yaml',
    'value: mirror-us-east-1.example.com',
    'value: mirror2-us-east-1.example.com',
  );
  const head = commit(repo, 'scale web, new us mirror');
  return { repo, base, head };
}

function readTree(dir: string): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== '.gitfleet-render') tree.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return tree;
}

async function renderAt(repo: string, ref: string): Promise<string> {
  const out = join(tempDir('out'), 'render');
  assert.equal((await runCli(['render', repo, '--ref', ref, '--out', out])).code, 0);
  return out;
}

test('a change exits 6 and names exactly the clusters and files whose rendered output differs', async () => {
  const { repo, base, head } = changedExample();
  const run = await runCli(['diff', repo, base, head]);
  assert.equal(run.code, 6, run.stderr);
  const before = readTree(await renderAt(repo, base));
  const after = readTree(await renderAt(repo, head));
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
    (p) => before.get(p) !== after.get(p),
  );
  assert.ok(changed.length >= 3, `the edit changes several files (${changed.join(', ')})`);
  const clusters = [...new Set(changed.map((p) => p.split('/')[0]!))].sort();
  const headers = run.stdout.split('\n').filter((l) => l.startsWith('# cluster '));
  assert.deepEqual(
    headers.map((h) => h.split(' ')[2]!.replace(/:$/, '')),
    clusters,
  );
  const diffed = [...run.stdout.matchAll(/^diff --git a\/(\S+) /gm)].map((m) => m[1]!).sort();
  assert.deepEqual(diffed, changed.sort());
  assert.match(run.stdout, /^-\s+image: mirror-us-east-1\.example\.com\/shop\/web:1\.8\.0$/m);
  assert.match(run.stdout, /^\+\s+image: mirror2-us-east-1\.example\.com\/shop\/web:1\.8\.0$/m);
  assert.match(run.stdout, /^- {2}replicas: \d+\n\+ {2}replicas: \d+$/m);
  assert.match(run.stdout, /^# {3}replicas Deployment\/shop\/web: .*\d+→\d+/m);
});

test('the text output applied with git apply to the base render gives the head render', async () => {
  const { repo, base, head } = changedExample();
  const run = await runCli(['diff', repo, base, head]);
  const out = await renderAt(repo, base);
  const patch = join(out, '..', 'change.patch');
  writeFileSync(patch, `${run.stdout}\n`);
  execFileSync('git', ['apply', '--check', patch], { cwd: out });
  execFileSync('git', ['apply', patch], { cwd: out });
  assert.deepEqual(readTree(out), readTree(await renderAt(repo, head)));
});

test('the same ref twice exits 0 and prints only the verdict, the state it used and what it compared', async () => {
  const { repo, head } = changedExample();
  const run = await runCli(['diff', repo, head, 'main']);
  assert.equal(run.code, 0, run.stderr);
  const short = head.slice(0, 7);
  assert.equal(
    run.stdout,
    [
      '# verdict: no change on any cluster',
      '# state: no hub state: rendered as a first pass',
      `# compared: repository ${join(repo, '.git')}; base '${head}' ${short} "scale web, new us mirror"; head 'main' (refs/heads/main) ${short} "scale web, new us mirror"`,
    ].join('\n'),
  );
});

test('markdown has the summary table with a row per changed cluster and a collapsed diff per cluster', async () => {
  const { repo, base, head } = changedExample();
  const run = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.equal(run.code, 6);
  assert.match(run.stdout, /^\| cluster \| added \| changed \| removed \|$/m);
  const rows = run.stdout.split('\n').filter((l) => /^\| `[a-z0-9-]+` /.test(l));
  const sections = [...run.stdout.matchAll(/<details><summary>([a-z0-9-]+) /g)].map((m) => m[1]);
  assert.ok(rows.length >= 2);
  assert.deepEqual(
    rows.map((r) => r.split('`')[1]),
    sections,
  );
  assert.match(run.stdout, /```diff\n/);
  assert.match(run.stdout, /\*\*Placement\*\*/);
});

test('json holds both commits, the clusters with their file diffs and the replica changes', async () => {
  const { repo, base, head } = changedExample();
  const run = await runCli(['diff', repo, base, head, '--format', 'json']);
  assert.equal(run.code, 6);
  const diff = JSON.parse(run.stdout);
  assert.equal(diff.base.commit, base);
  assert.equal(diff.head.commit, head);
  assert.equal(diff.changed, true);
  assert.deepEqual(diff.state, { used: false, note: 'no hub state: rendered as a first pass' });
  const sum = (k: string) => diff.clusters.reduce((n: number, c: Record<string, number>) => n + c[k]!, 0);
  assert.deepEqual(
    [diff.verdict.clusters, diff.verdict.added, diff.verdict.changed, diff.verdict.removed],
    [diff.clusters.length, sum('added'), sum('changed'), sum('removed')],
  );
  assert.equal(diff.verdict.refusedDeletions, 0);
  assert.match(diff.verdict.text, /^verdict: \d+ clusters touched; /);
  const us = diff.clusters.find((c: { cluster: string }) => c.cluster === 'aws-us-prod');
  assert.ok(
    us.files.some(
      (f: { path: string; diff: string }) =>
        f.path === 'shop/Deployment.apps/web.yaml' && f.diff.includes('mirror2-us-east-1'),
    ),
  );
  const web = diff.placement.replicas.filter(
    (r: { template: string }) => r.template === 'Deployment/shop/web',
  );
  assert.ok(web.length > 0);
  const total = (side: 'from' | 'to') =>
    web.reduce((sum: number, r: Record<string, number>) => sum + r[side]!, 0);
  assert.equal(total('to') - total('from'), 2, 'two more web replicas on the clusters that keep web');
});

test('a base from before the fleet existed loads as an empty fleet: every cluster is new', async () => {
  const repo = initRepo();
  writeFiles(repo, { 'README.md': 'nothing yet\n' });
  const base = commit(repo, 'readme');
  cpSync(example, repo, { recursive: true });
  const head = commit(repo, 'fleet');
  const run = await runCli(['diff', repo, base, head, '--format', 'json']);
  assert.equal(run.code, 6, run.stderr);
  const diff = JSON.parse(run.stdout);
  assert.ok(diff.clusters.length >= 5);
  for (const c of diff.clusters) assert.equal(c.presence, 'added');
});

test('a base that does not load exits 7 and names the side, the ref and the file with its line', async () => {
  const repo = initRepo();
  cpSync(example, repo, { recursive: true });
  writeFiles(repo, {
    'apps/broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n   bad: indent\n',
  });
  const base = commit(repo, 'broken');
  git(repo, 'rm', '-q', 'apps/broken.yaml');
  const head = commit(repo, 'fixed');
  const run = await runCli(['diff', repo, base, head]);
  assert.equal(run.code, 7);
  assert.match(run.stderr, new RegExp(`base '${base}' \\(${base.slice(0, 12)}\\) does not load`));
  assert.match(run.stderr, /apps\/broken\.yaml#0:5:\d+/);
  assert.doesNotMatch(run.stderr, /head '/);
  const md = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.equal(md.code, 7);
  assert.match(md.stdout, /could not be computed/);
  assert.match(md.stdout, /apps\/broken\.yaml#0:5/);
});

test('an unknown ref exits 7 naming it; missing arguments and a bad format are usage errors', async () => {
  const { repo, base } = changedExample();
  const missing = await runCli(['diff', repo, base, 'no-such-branch']);
  assert.equal(missing.code, 7);
  assert.match(missing.stderr, /head 'no-such-branch' does not load/);
  assert.equal((await runCli(['diff', repo, base])).code, 2);
  assert.equal((await runCli(['diff', repo, base, 'main', '--format', 'html'])).code, 2);
});

test('the sides take any revision naming a commit: HEAD~1 HEAD is the same diff as the two commit ids', async () => {
  const { repo, base, head } = changedExample();
  const byId = await runCli(['diff', repo, base, head, '--format', 'json']);
  for (const [from, to] of [
    ['HEAD~1', 'HEAD'],
    ['main^', '@'],
    [`${head}~1`, ':/new us mirror'],
    ['HEAD^{/^fleet}', 'main^{commit}'],
  ] as const) {
    const run = await runCli(['diff', repo, from, to, '--format', 'json']);
    assert.equal(run.code, 6, `${from} ${to}: ${run.stderr}`);
    const [a, b] = [JSON.parse(run.stdout), JSON.parse(byId.stdout)];
    assert.deepEqual([a.base.commit, a.head.commit], [base, head]);
    assert.deepEqual(a.clusters, b.clusters);
  }
  const nothing = await runCli(['diff', repo, 'HEAD~2', 'HEAD']);
  assert.equal(nothing.code, 7);
  assert.match(nothing.stderr, /base 'HEAD~2' does not load/);
  assert.match(nothing.stderr, /revision 'HEAD~2' in .*: names no commit/);
});
