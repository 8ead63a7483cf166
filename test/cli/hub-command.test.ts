import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseInterval } from '../../src/cli/parse-interval.js';
import { main } from '../../src/cli/main.js';
import { runCli } from './run-cli.js';
import { serveFleet } from '../adapters/remote/remote-fixture.js';
import { commitChange, exampleFleetRepo, git, hubRefs, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { eventually } from '../support/eventually.js';
import { liveIo } from './hub-test-io.js';

after(removeFleetRepos);

test('hub --once renders every cluster branch, and a second run has nothing to do', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const first = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^hub: rendered refs\/heads\/main [0-9a-f]{7} \(initial fleet\)/);
  assert.match(first.stdout, /^ {2}aws-eu-prod\s+updated\s+[0-9a-f]{7}\s+15 objects \(\+15 ~0 -0\)$/m);
  assert.match(first.stdout, /^ {2}bindings\s+updated\s+[0-9a-f]{7}\s+20 records, 20 changed$/m);
  assert.equal(hubRefs(repo).size, 6);
  const second = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(second.code, 0);
  assert.match(second.stdout, /is rendered already .*nothing to do/);
});

test('hub --once --output json prints the pass result', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const run = await runCli([
    'hub',
    '--repo',
    repo.path,
    '--once',
    '--output',
    'json',
    '--source-ref',
    'refs/heads/main',
  ]);
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  assert.equal(result.type, 'rendered');
  assert.equal(result.source.commit, git(repo, ['rev-parse', 'main']));
  assert.equal(result.clusters['onprem-gpu'].type, 'updated');
  assert.equal(
    result.clusters['onprem-gpu'].commit,
    git(repo, ['rev-parse', 'gitfleet/clusters/onprem-gpu']),
  );
});

test('hub --once exits 1 on a source that does not load, naming the file and line, and writes nothing', async () => {
  const repo = exampleFleetRepo({ bare: true });
  await runCli(['hub', '--repo', repo.path, '--once']);
  const refs = hubRefs(repo);
  commitChange(repo, 'bad yaml', (work) =>
    writeFileSync(join(work, 'apps/bad.yaml'), 'kind: ConfigMap\n  bad: indent\n'),
  );
  const run = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /does not load; nothing was written/);
  assert.match(run.stderr, /^ {2}apps\/bad\.yaml(#\d+)?:\d+(:\d+)?: /m);
  assert.deepEqual(hubRefs(repo), refs);
});

test('hub --once exits 3 when the guard refuses a deletion, and says how to allow it', async () => {
  const repo = exampleFleetRepo({ bare: false });
  await runCli(['hub', '--repo', repo.path, '--once']);
  commitChange(repo, 'drop the shop', (work) => rmSync(join(work, 'apps/shop'), { recursive: true }));
  const run = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(run.code, 3, run.stdout);
  assert.match(run.stdout, /^ {2}aws-eu-prod\s+refused\s+kept its last good commit/m);
  assert.match(
    run.stdout,
    /error: Cluster\/aws-eu-prod @aws-eu-prod: the render deletes 11 of 15 objects .*Gitfleet-Allow-Deletions: aws-eu-prod/,
  );
});

test('hub --once run again after a refused deletion refuses it again, until it is allowed', async () => {
  const repo = exampleFleetRepo({ bare: false });
  await runCli(['hub', '--repo', repo.path, '--once']);
  commitChange(repo, 'drop the shop', (work) => rmSync(join(work, 'apps/shop'), { recursive: true }));
  const first = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(first.code, 3, first.stdout);
  const refs = hubRefs(repo);
  for (const run of ['second', 'third']) {
    const again = await runCli(['hub', '--repo', repo.path, '--once']);
    assert.equal(again.code, 3, `${run} run: ${again.stdout}`);
    assert.doesNotMatch(again.stdout, /nothing to do/, `${run} run`);
    assert.match(
      again.stdout,
      /error: Cluster\/aws-eu-prod @aws-eu-prod: the render deletes 11 of 15 objects .*Gitfleet-Allow-Deletions: aws-eu-prod/,
      `${run} run`,
    );
    assert.deepEqual(hubRefs(repo), refs, `${run} run writes nothing`);
  }
  commitChange(repo, 'allow it\n\nGitfleet-Allow-Deletions: all', () => undefined);
  const allowed = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(allowed.code, 0, allowed.stdout);
  const after = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(after.code, 0, after.stdout);
  assert.match(after.stdout, /nothing to do/);
});

const usageCases = [
  {
    name: 'hub without --repo is a usage error',
    given: ['hub', '--once'],
    want: { code: 2, stderr: /--repo PATH\|URL is required/ },
  },
  {
    name: 'hub with a malformed --interval is a usage error',
    given: ['hub', '--repo', '.', '--interval', 'soon'],
    want: { code: 2, stderr: /--interval must be like 30s/ },
  },
  {
    name: 'hub on a path that is no repository fails with the path',
    given: ['hub', '--repo', '/nonexistent/fleet', '--once'],
    want: { code: 1, stderr: /\/nonexistent\/fleet: not a git repository/ },
  },
];

for (const { name, given, want } of usageCases) {
  test(name, async () => {
    const run = await runCli(given);
    assert.equal(run.code, want.code);
    assert.match(run.stderr, want.stderr);
  });
}

test('hub without --once renders at start, again on every push, and stops cleanly when interrupted', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const io = liveIo();
  const running = main(['hub', '--repo', repo.path, '--interval', '1h'], io);
  await eventually(() => /hub: rendered .*\(initial fleet\)/.test(io.text()), 'the first pass');
  const before = hubRefs(repo).get('refs/heads/gitfleet/clusters/aws-eu-prod');
  commitChange(repo, 'api 9.9.9', (work) => {
    const file = join(work, 'apps/shop/api.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/image: (\S+):(\S+)/, 'image: $1:9.9.9'));
  });
  await eventually(() => /hub: rendered .*\(api 9\.9\.9\)/.test(io.text()), 'the pass after the push');
  assert.notEqual(hubRefs(repo).get('refs/heads/gitfleet/clusters/aws-eu-prod'), before);
  io.interrupt();
  assert.equal(await running, 0);
  assert.match(io.text(), /hub: stopped$/);
  git(repo, ['fsck', '--strict', '--no-dangling']);
});

const intervals = [
  { name: 'a plain number is seconds', given: '45', want: 45_000 },
  { name: 'seconds, minutes, hours and milliseconds are understood', given: '5m', want: 300_000 },
  { name: 'hours are understood', given: '1h', want: 3_600_000 },
  { name: 'milliseconds are understood', given: '250ms', want: 250 },
  { name: 'fractions of a second are understood', given: '1.5s', want: 1500 },
  { name: 'words are refused', given: 'soon', want: undefined },
  { name: 'zero is refused', given: '0s', want: undefined },
];

for (const { name, given, want } of intervals) {
  test(`--interval: ${name}`, () => assert.equal(parseInterval(given), want));
}

/** POSTs an unsigned push to the webhook and returns the HTTP status. */
async function postUnsigned(url: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
  });
  return res.status;
}

for (const { name, addr, host } of [
  { name: 'listens on loopback by default', addr: undefined, host: '127.0.0.1' },
  { name: 'listens on the address --webhook-addr names', addr: '127.0.0.2', host: '127.0.0.2' },
]) {
  test(`hub's push webhook ${name}`, { timeout: 60_000 }, async () => {
    const fleet = await serveFleet();
    const secret = join(fleet.cacheDir, 'secret');
    writeFileSync(secret, 'webhook-secret\n');
    const io = liveIo();
    try {
      const args = ['hub', '--repo', fleet.url, '--interval', '1h', '--cache-dir', fleet.cacheDir];
      args.push('--webhook-port', '0', '--webhook-secret-file', secret);
      if (addr !== undefined) args.push('--webhook-addr', addr);
      const running = main(args, io);
      await eventually(() => /webhook listening on http:\/\//.test(io.text()), 'the webhook');
      const url = /webhook listening on (\S+)/.exec(io.text())?.[1] ?? '';
      assert.match(url, new RegExp(`^http://${host.replace(/\./g, '\\.')}:\\d+/hooks/push$`));
      assert.equal(await postUnsigned(url), 401, 'it answers there');
      const port = new URL(url).port;
      if (addr !== undefined) {
        await assert.rejects(postUnsigned(`http://127.0.0.1:${port}/hooks/push`), 'not on 127.0.0.1');
      }
      io.interrupt();
      assert.equal(await running, 0);
    } finally {
      await fleet.server.close();
    }
  });
}

test('hub --source-ref with a revision of one commit is a usage error saying the hub follows a branch', async () => {
  const repo = exampleFleetRepo({ bare: false });
  for (const rev of ['HEAD~1', 'main^{commit}', git(repo, ['rev-parse', 'main']), 'refs/tags/v1']) {
    const run = await runCli(['hub', '--repo', repo.path, '--once', '--source-ref', rev]);
    assert.equal(run.code, 2, `${rev}: ${run.stderr}`);
    assert.match(run.stderr, /the hub follows a branch and renders each new commit on it/);
    assert.match(run.stderr, /gitfleet render --ref or gitfleet diff/);
  }
  assert.equal(hubRefs(repo).size, 0, 'nothing was written');
});

test('hub --once on a source branch nobody pushed says so, with the branches there are', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const other = await runCli(['hub', '--repo', repo.path, '--once', '--source-ref', 'release']);
  assert.equal(other.code, 1, other.stderr);
  assert.match(
    other.stderr,
    /refs\/heads\/release: not in .* \(it has refs\/heads\/main\); push the fleet repository's source branch first/,
  );
  const empty = mkdtempSync(join(tmpdir(), 'gitfleet-empty-'));
  try {
    execFileSync('git', ['init', '-q', '--bare', empty]);
    const none = await runCli(['hub', '--repo', empty, '--once']);
    assert.equal(none.code, 1, none.stderr);
    assert.match(none.stderr, /refs\/heads\/main: not in .* \(it has no branch yet\); push the fleet/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  assert.equal(hubRefs(repo).size, 0, 'nothing was written');
});
