// The agent's passes on a real API server, its repository behind the forge emulator answering
// 429 for an hour (on an injected clock, which drives the forge's limit and the client's gate
// alike): while throttled a pass sends at most one request per wait the host asked for, keeps
// the cluster as last applied and writes no status; after the limit the first pass applies what
// was committed meanwhile and its status reaches the host in one push, nothing lost.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitGates } from '../../src/adapters/remote/rate-limit-gate.js';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { agentMirrorRefs, statusBranchRef } from '../../src/loops/agent/agent-repo.js';
import { parseStatusBranch } from '../../src/core/status/status-branch.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { git, makeServedRepo } from '../git-server/git-cli.js';
import { startForge } from '../git-server/start-forge.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { aConfigMap, commitClusterBranch, prefix, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';

after(removeTempDirs);

const hour = 3_600_000;

test('429 for an hour: passes send one request per asked wait and no status; then the newest status in one push', async (t) => {
  const clock = fakeClock(Date.parse('2026-12-04T12:00:00Z'));
  const root = tempDir('served');
  const served = makeServedRepo(root, 'fleet.git');
  const forge = await startForge({ root, now: clock.now });
  t.after(() => forge.close());
  const notices: string[] = [];
  const cluster = uniqueName('rl');
  const repo = remoteHubRepo({
    url: forge.url('fleet.git'),
    cacheDir: tempDir('cache'),
    mirrorKey: `agent ${cluster}`,
    sourceRef: `${prefix}clusters/${cluster}`,
    branchPrefix: prefix,
    onlyRefs: agentMirrorRefs(prefix, cluster),
    rateLimits: rateLimitGates({ now: clock.now, random: () => 0, onNotice: (n) => notices.push(n.message) }),
  });
  const agent = testAgent({ repo, name: cluster });
  t.after(() => agent.dispose());
  const statusRef = statusBranchRef(prefix, cluster);
  await inNamespace(testKubeConfig(), 'rate-limited', async (ns) => {
    await commitClusterBranch(served, cluster, [aConfigMap(ns, 'web', { v: '1' })]);
    const first = await agent.pass({ clock });
    assert.equal(first.fullyApplied, true);
    const statusBefore = await git(served, ['rev-parse', statusRef]);

    forge.limitFor({ forMs: hour, retryAfterSeconds: 60 });
    const changed = await commitClusterBranch(served, cluster, [aConfigMap(ns, 'web', { v: '2' })]);
    const sent = () => forge.counts('fleet.git').limited;
    const throttled = await agent.pass({ clock });
    assert.equal(throttled.gitReachable, false);
    assert.equal(throttled.status.type, 'skipped', 'no status is written while it cannot be pushed');
    assert.equal(agent.memory.git.rateLimitWaitMs, 60_000);
    assert.equal(sent(), 1);
    await agent.pass({ clock });
    clock.advance(59_000);
    await agent.pass({ clock });
    assert.equal(sent(), 1, 'nothing sent before the asked wait has passed');
    clock.advance(1000);
    await agent.pass({ clock });
    await agent.pass({ clock });
    assert.equal(sent(), 2, 'one request once the gate opened, none after it closed again');
    const live = await agent.client.get(refOf(aConfigMap(ns, 'web', {})));
    assert.deepEqual(live?.['data'], { v: '1' }, 'the cluster keeps the last applied state');
    assert.equal(await git(served, ['rev-parse', statusRef]), statusBefore);

    clock.advance(hour);
    const back = await agent.pass({ clock });
    assert.equal(back.gitReachable, true);
    assert.equal(back.status.type, 'written');
    assert.deepEqual((await agent.client.get(refOf(aConfigMap(ns, 'web', {}))))?.['data'], { v: '2' });
    const report = parseStatusBranch(await readStatusFiles(served, statusRef));
    assert.equal(report?.appliedCommit, changed, 'the newest status reached the host');
    assert.equal(
      await git(served, ['rev-list', '--count', `${statusBefore}..${statusRef}`]),
      '1',
      'in one push',
    );
    assert.equal(
      notices.length,
      2,
      `the limit once, the server answering again once: ${notices.join(' | ')}`,
    );
  });
});
