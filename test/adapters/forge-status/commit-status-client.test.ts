// The forge-status client against a local server speaking GitHub's, Gitea's and GitLab's
// commit-status APIs: paths, auth headers, bodies, the read-back, and the faults (a server that
// hangs, answers 500 for ever or 429 with Retry-After, a token file that is missing).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitStatusClient } from '../../../src/adapters/forge-status/commit-status-client.js';
import { ForgeStatusError } from '../../../src/adapters/forge-status/forge-status-error.js';
import { forgeTargetOf } from '../../../src/adapters/forge-status/forge-target.js';
import { rateLimitGates } from '../../../src/adapters/remote/rate-limit-gate.js';
import { readToken } from '../../../src/adapters/remote/read-token.js';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';
import { startForgeStatusServer, type ForgeKind } from '../../support/forge-status-server.js';
import { tempDir, removeTempDirs } from '../../git-server/git-cli.js';

const token = 'forge-token-6b1f0e';
const sha = 'c3'.repeat(20);
const repository = 'fleet-team/fleet';

after(() => removeTempDirs());

function clientFor(kind: ForgeKind, apiUrl: string, over: { deadlineMs?: number; now?: () => number } = {}) {
  return commitStatusClient({
    target: { kind, apiUrl, repository },
    token: () => Promise.resolve(token),
    rateLimits: rateLimitGates({ now: over.now ?? (() => Date.now()), random: () => 0 }),
    timeouts: { connectMs: 2000, idleMs: 2000, deadlineMs: over.deadlineMs ?? 5000 },
  });
}

const cases: {
  kind: ForgeKind;
  path: string;
  auth: [string, string];
  body: Record<string, string>;
  canceled: string;
}[] = [
  {
    kind: 'github',
    path: `/api/v3/repos/${repository}/statuses/${sha}`,
    auth: ['authorization', `Bearer ${token}`],
    body: {
      state: 'pending',
      context: 'gitfleet/deploy',
      description: 'healthy on 0/2 clusters, 2 progressing',
    },
    canceled: 'error',
  },
  {
    kind: 'gitea',
    path: `/api/v1/repos/${repository}/statuses/${sha}`,
    auth: ['authorization', `token ${token}`],
    body: {
      state: 'pending',
      context: 'gitfleet/deploy',
      description: 'healthy on 0/2 clusters, 2 progressing',
    },
    canceled: 'error',
  },
  {
    kind: 'gitlab',
    path: `/api/v4/projects/${encodeURIComponent(repository)}/statuses/${sha}`,
    auth: ['private-token', token],
    body: {
      state: 'running',
      name: 'gitfleet/deploy',
      description: 'healthy on 0/2 clusters, 2 progressing',
    },
    canceled: 'canceled',
  },
];

for (const c of cases) {
  test(`${c.kind}: a status is posted at the documented path with the token in its header, and read back`, async () => {
    const server = await startForgeStatusServer({ kind: c.kind, token, repository });
    try {
      const client = clientFor(c.kind, server.apiUrl);
      assert.equal(await client.latest(sha, 'gitfleet/deploy'), undefined, 'nothing posted yet');
      await client.post({
        sha,
        context: 'gitfleet/deploy',
        state: 'pending',
        description: c.body.description!,
      });
      const post = server.requests.find((r) => r.method === 'POST')!;
      assert.equal(post.path, c.path);
      assert.equal(post.headers[c.auth[0]], c.auth[1]);
      assert.equal(post.headers['content-type'], 'application/json');
      assert.deepEqual(post.body, c.body);
      assert.deepEqual(await client.latest(sha, 'gitfleet/deploy'), {
        state: 'pending',
        description: c.body.description,
      });
      await client.post({ sha, context: 'gitfleet/deploy', state: 'canceled', description: 'superseded' });
      assert.equal(server.posted(sha).at(-1)?.state, c.canceled, "a superseded commit in the forge's word");
      assert.deepEqual(await client.latest(sha, 'gitfleet/deploy'), {
        state: 'canceled',
        description: 'superseded',
      });
      assert.equal(await client.latest(sha, 'other/context'), undefined, 'another context is not ours');
      assert.equal(server.requests.length, 6, 'one request per call, nothing more');
    } finally {
      await server.close();
    }
  });
}

test('gitlab: posting the state a context already has is taken as posted (GitLab refuses to repeat a state)', async () => {
  const server = await startForgeStatusServer({ kind: 'gitlab', token, repository });
  try {
    const client = clientFor('gitlab', server.apiUrl);
    await client.post({
      sha,
      context: 'gitfleet/deploy',
      state: 'pending',
      description: 'healthy on 0/2 clusters',
    });
    await client.post({
      sha,
      context: 'gitfleet/deploy',
      state: 'pending',
      description: 'healthy on 1/2 clusters',
    });
    assert.equal(server.requests.length, 2);
    assert.equal(server.posted(sha).length, 1, 'the forge kept the first one');
  } finally {
    await server.close();
  }
});

test('a wrong token is refused with the forge message, and the token appears in no message', async () => {
  const server = await startForgeStatusServer({ kind: 'github', token: 'another-token', repository });
  try {
    const client = clientFor('github', server.apiUrl);
    const error = await client.post({ sha, context: 'c', state: 'success', description: 'd' }).then(
      () => assert.fail('posted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ForgeStatusError);
    assert.equal(error.code, 'ForgeRefused');
    assert.match(error.message, /statuses\/c3c3c3.*answered 401: Bad credentials/);
    assert.ok(!error.message.includes(token));
  } finally {
    await server.close();
  }
});

test('a forge that never answers fails the request at its deadline as ForgeUnreachable', async () => {
  const server = await startForgeStatusServer({ kind: 'github', token, repository });
  try {
    server.misbehave('hang');
    const client = clientFor('github', server.apiUrl, { deadlineMs: 300 });
    await assert.rejects(
      client.post({ sha, context: 'c', state: 'success', description: 'd' }),
      (e: unknown) => {
        assert.ok(e instanceof ForgeStatusError, String(e));
        assert.equal(e.code, 'ForgeUnreachable');
        assert.match(e.message, /POST failed: .*no answer within 300 ms/);
        return true;
      },
    );
  } finally {
    await server.close();
  }
});

test('a forge that answers 500 is ForgeUnreachable (retryable), each attempt one request', async () => {
  const server = await startForgeStatusServer({ kind: 'gitea', token, repository });
  try {
    server.misbehave('fail500');
    const client = clientFor('gitea', server.apiUrl);
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        client.post({ sha, context: 'c', state: 'success', description: 'd' }),
        (e: unknown) => {
          assert.ok(e instanceof ForgeStatusError && e.code === 'ForgeUnreachable' && !e.terminal, String(e));
          return true;
        },
      );
    }
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

test('a 429 with Retry-After closes the gate: nothing is sent until the time it names', async () => {
  const server = await startForgeStatusServer({ kind: 'github', token, repository });
  try {
    let now = 1_800_000_000_000;
    const client = clientFor('github', server.apiUrl, { now: () => now });
    server.misbehave('limit429', 120);
    const post = () => client.post({ sha, context: 'c', state: 'success', description: 'd' });
    const limited = await post().then(
      () => assert.fail('posted'),
      (e: unknown) => e,
    );
    assert.ok(limited instanceof RemoteError && limited.code === 'RateLimited', String(limited));
    assert.equal((limited as RemoteError & { retryAt: number }).retryAt, now + 120_000);
    server.misbehave('none');
    await assert.rejects(post(), (e: unknown) => e instanceof RemoteError && e.code === 'RateLimited');
    assert.equal(server.requests.length, 1, 'the closed gate sent nothing');
    now += 121_000;
    await post();
    assert.equal(server.requests.length, 2);
    assert.equal(server.posted(sha).length, 1);
  } finally {
    await server.close();
  }
});

test('a missing token file fails as BadToken naming the file, before any request', async () => {
  const dir = tempDir('forge-token');
  const file = join(dir, 'token');
  writeFileSync(file, `${token}\n`);
  assert.equal(await readToken({ env: {}, file }), token);
  rmSync(file);
  const server = await startForgeStatusServer({ kind: 'github', token, repository });
  try {
    const client = commitStatusClient({
      target: { kind: 'github', apiUrl: server.apiUrl, repository },
      token: async () => (await readToken({ env: {}, file })) ?? '',
    });
    await assert.rejects(
      client.post({ sha, context: 'c', state: 'success', description: 'd' }),
      (e: unknown) => {
        assert.ok(e instanceof RemoteError && e.code === 'BadToken', String(e));
        assert.match(e.message, /token: cannot read the token file \(ENOENT\)/);
        return true;
      },
    );
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

test('the forge, API and repository come from the --repo URL, each overridable', () => {
  const table: { given: Parameters<typeof forgeTargetOf>[0]; want: ReturnType<typeof forgeTargetOf> }[] = [
    {
      given: { repo: 'https://github.com/acme/fleet.git' },
      want: { kind: 'github', apiUrl: 'https://api.github.com', repository: 'acme/fleet' },
    },
    {
      given: { repo: 'https://gitlab.com/acme/platform/fleet' },
      want: { kind: 'gitlab', apiUrl: 'https://gitlab.com/api/v4', repository: 'acme/platform/fleet' },
    },
    {
      given: { repo: 'https://gitea.acme.test/acme/fleet.git' },
      want: { kind: 'gitea', apiUrl: 'https://gitea.acme.test/api/v1', repository: 'acme/fleet' },
    },
    {
      given: { repo: 'https://git.acme.test/acme/fleet', kind: 'github' },
      want: { kind: 'github', apiUrl: 'https://git.acme.test/api/v3', repository: 'acme/fleet' },
    },
    {
      given: {
        repo: '/srv/fleet',
        kind: 'gitea',
        apiUrl: 'http://127.0.0.1:3000/api/v1/',
        repository: 'a/b',
      },
      want: { kind: 'gitea', apiUrl: 'http://127.0.0.1:3000/api/v1', repository: 'a/b' },
    },
  ];
  for (const { given, want } of table) assert.deepEqual(forgeTargetOf(given), want, given.repo);
  assert.throws(
    () => forgeTargetOf({ repo: 'https://git.acme.test/acme/fleet' }),
    /git\.acme\.test\/acme\/fleet: commit statuses need to know which forge it is/,
  );
  assert.throws(
    () => forgeTargetOf({ repo: '/srv/fleet', kind: 'github' }),
    /which repository \(--commit-status-repo owner\/name\)/,
  );
});
