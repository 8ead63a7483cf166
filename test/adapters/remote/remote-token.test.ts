import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';
import { remoteHubRepo, type RemoteHubRepoOptions } from '../../../src/adapters/remote/remote-hub-repo.js';
import { git, removeTempDirs } from '../../git-server/git-cli.js';
import { commitInMirror, serveFleet } from './remote-fixture.js';

after(removeTempDirs);

const slow = { timeout: 120_000 };
const token = `tok-${randomBytes(12).toString('hex')}`;

/** Resolves to the error the promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<RemoteError> {
  const error = await promise.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof RemoteError, String(error));
  return error;
}

const refused: {
  name: string;
  given: (url: string) => Partial<RemoteHubRepoOptions> & { url: string };
  want: { code: string; hidden: string[] };
}[] = [
  {
    name: 'Without a token, a server that demands one refuses the refresh with AuthFailed.',
    given: (url) => ({ url }),
    want: { code: 'AuthFailed', hidden: [token] },
  },
  {
    name: 'A wrong token is refused with AuthFailed and the message does not show it.',
    given: (url) => ({ url, token: 'wrong-token-value' }),
    want: { code: 'AuthFailed', hidden: [token, 'wrong-token-value'] },
  },
  {
    name: 'A wrong password embedded in the URL is refused and neither it nor the user name shows in the message.',
    given: (url) => ({ url: url.replace('http://', 'http://someone:Embedded-Secret@') }),
    want: { code: 'AuthFailed', hidden: [token, 'Embedded-Secret', 'someone:'] },
  },
];

for (const { name, given, want } of refused) {
  test(name, slow, async () => {
    const fleet = await serveFleet({ token });
    try {
      const hub = remoteHubRepo({
        cacheDir: fleet.cacheDir,
        sourceRef: 'main',
        branchPrefix: 'gitfleet/',
        ...given(fleet.url),
      });
      const error = await rejection(hub.refresh());
      assert.equal(error.code, want.code);
      assert.equal(error.terminal, true);
      for (const secret of want.hidden) assert.ok(!error.message.includes(secret), error.message);
      for (const secret of want.hidden) assert.ok(!String(error.stack).includes(secret));
    } finally {
      await fleet.server.close();
    }
  });
}

for (const scheme of ['basic', 'bearer'] as const) {
  test(
    `With the token sent as ${scheme} credentials, the hub fetches and pushes, and the server saw that scheme.`,
    slow,
    async () => {
      const fleet = await serveFleet({ token });
      try {
        const hub = remoteHubRepo({
          url: fleet.url,
          cacheDir: fleet.cacheDir,
          sourceRef: 'main',
          branchPrefix: 'gitfleet/',
          token,
          authScheme: scheme,
        });
        const seenBefore = fleet.server.requests.length;
        await hub.refresh();
        const c1 = await commitInMirror({
          gitdir: hub.gitdir,
          files: { 'a.yaml': '1\n' },
          parents: [],
          message: 'render',
        });
        await hub.publish([{ ref: 'refs/heads/gitfleet/clusters/x', oldOid: null, newOid: c1 }]);
        assert.equal(await git(fleet.served, ['rev-parse', 'refs/heads/gitfleet/clusters/x']), c1);
        const authorized = fleet.server.requests.slice(seenBefore).filter((r) => r.authorized);
        assert.ok(authorized.length >= 4, 'discovery and exchange, for fetch and push');
        const prefix = scheme === 'basic' ? 'Basic ' : 'Bearer ';
        assert.ok(authorized.every((r) => r.authorization?.startsWith(prefix)));
      } finally {
        await fleet.server.close();
      }
    },
  );
}

test('A push refused for its token names the URL but not the token.', slow, async () => {
  const fleet = await serveFleet({ token });
  try {
    const options = {
      url: fleet.url,
      cacheDir: fleet.cacheDir,
      sourceRef: 'main',
      branchPrefix: 'gitfleet/',
    };
    const reader = remoteHubRepo({ ...options, token });
    await reader.refresh();
    const c1 = await commitInMirror({
      gitdir: reader.gitdir,
      files: { 'a.yaml': '1\n' },
      parents: [],
      message: 'render',
    });
    const wrong = remoteHubRepo({ ...options, token: 'another-wrong-token' });
    const error = await rejection(
      wrong.publish([{ ref: 'refs/heads/gitfleet/clusters/x', oldOid: null, newOid: c1 }]),
    );
    assert.equal(error.code, 'AuthFailed');
    assert.match(error.message, /^http:\/\/127\.0\.0\.1:\d+\/fleet\.git: push failed/);
    assert.ok(!error.message.includes('another-wrong-token'));
  } finally {
    await fleet.server.close();
  }
});
