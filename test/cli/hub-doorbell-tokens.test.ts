// The doorbell's tokens as the running hub holds them (cli/commands/hub-doorbell.ts,
// adapters/http/notify-tokens-file.ts): a token replaced or removed in the --notify-tokens file
// stops opening the doorbell at the hub's next refresh, without a restart; a cluster the last
// pass no longer found registered (cluster leave merged) is refused with its old token; a file
// that no longer parses keeps the tokens read before, with one warning.
import { after, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHubDoorbell } from '../../src/cli/commands/hub-doorbell.js';
import { localHubRepo } from '../../src/adapters/remote/hub-repo.js';
import { StatusRepositories } from '../../src/loops/hub/status-repositories.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';
import type { Logger } from '../../src/loops/runtime/logger.js';
import { exampleFleetRepo, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeFleetRepos);
after(removeTempDirs);

async function beacon(url: string, cluster: string, token: string): Promise<number> {
  const response = await fetch(`${url}/v1/clusters/${cluster}/beacon`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  await response.text();
  return response.status;
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const put = (m: string) => void lines.push(m);
  return { lines, debug: put, info: put, warn: put, error: put };
}

async function doorbell(t: TestContext, tokens: string, status?: StatusRepositories) {
  const repo = exampleFleetRepo({ bare: true });
  const log = recordingLogger();
  const bell = await startHubDoorbell(
    { addr: '127.0.0.1:0', tokensFile: tokens, branchPrefix: 'gitfleet/' },
    localHubRepo(repo.path),
    { clock: fakeClock(), log, serving: () => true, ...(status ? { statusRepositories: status } : {}) },
  );
  t.after(() => bell.close());
  return { bell, log, url: bell.server.url };
}

test('A token replaced in the tokens file stops opening the doorbell at the next refresh, without a restart.', async (t) => {
  const dir = tempDir('doorbell-tokens');
  const tokens = join(dir, 'tokens.yaml');
  writeFileSync(tokens, 'm1: leaked-token\nm2: token-of-m2\n');
  const { bell, log, url } = await doorbell(t, tokens);
  assert.equal(await beacon(url, 'm1', 'leaked-token'), 204);

  // Replaced as Kubernetes replaces a mounted Secret: a new file moved over the old one.
  writeFileSync(join(dir, 'next.yaml'), 'm1: new-token\nm2: token-of-m2\n');
  renameSync(join(dir, 'next.yaml'), tokens);
  await bell.repo.refresh();
  assert.equal(await beacon(url, 'm1', 'leaked-token'), 401, 'the old token is refused');
  assert.equal(await beacon(url, 'm1', 'new-token'), 204);
  assert.equal(await beacon(url, 'm2', 'token-of-m2'), 204);
  assert.match(log.lines.join('\n'), /doorbell: --notify-tokens \S+tokens\.yaml read again: 2 clusters/);

  // A file that no longer parses keeps the tokens read before, said once.
  writeFileSync(tokens, 'm1: [not, a, token]\n');
  await bell.repo.refresh();
  await bell.repo.refresh();
  assert.equal(await beacon(url, 'm1', 'new-token'), 204);
  const warnings = log.lines.filter((l) => /the tokens read before stay in use/.test(l));
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /tokens\.yaml: cluster m1: the token must be a non-empty string/);
  assert.ok(!log.lines.join('\n').includes('new-token'), 'no token in the log');
});

test('A cluster the last pass did not find registered is refused with its token, as an unknown one.', async (t) => {
  const tokens = join(tempDir('doorbell-tokens'), 'tokens.yaml');
  writeFileSync(tokens, 'm1: token-of-m1\nm2: token-of-m2\n');
  const status = new StatusRepositories({
    open: localHubRepo,
    branchPrefix: () => 'gitfleet/',
    log: recordingLogger(),
  });
  const { url } = await doorbell(t, tokens, status);
  assert.equal(
    await beacon(url, 'm2', 'token-of-m2'),
    204,
    'before a pass has loaded the fleet: the file decides',
  );

  status.assignKeys(
    new Map([
      ['m1', undefined],
      ['m2', 'ssh-ed25519 AAAA m2'],
    ]),
  );
  assert.equal(await beacon(url, 'm2', 'token-of-m2'), 204);
  // cluster leave m2 merged: the next pass loads a fleet without it.
  status.assignKeys(new Map([['m1', undefined]]));
  assert.equal(await beacon(url, 'm2', 'token-of-m2'), 401);
  assert.equal(await beacon(url, 'm1', 'token-of-m1'), 204);
});
