// A fleet refused together does not come back together (docs/git-budget.md#rate-limits): twelve
// agents' mirrors, each with its own rate-limit gate as each agent process has, ask the forge
// emulator at once while it refuses with "Retry-After: 1" (the answer of a repository past its
// 15 reads a second); each then asks again when its gate opens, on the injected clock. The
// forge counts, per second of that clock, the requests that came back: spread over the jitter's
// two seconds, not all within the first tenth of a second.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitGates } from '../../../src/adapters/remote/rate-limit-gate.js';
import { RateLimitedError } from '../../../src/adapters/remote/rate-limited-error.js';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { agentMirrorRefs } from '../../../src/loops/agent/agent-repo.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../../git-server/git-cli.js';
import { startForge, type ForgeEvent } from '../../git-server/start-forge.js';
import { commitWorkFile } from './remote-fixture.js';

after(removeTempDirs);

const start = Date.parse('2026-12-06T05:00:00Z');
const agents = 12;

test(
  'Twelve agents refused together with Retry-After: 1 come back spread over two seconds, at most half of them in any one',
  { timeout: 120_000 },
  async () => {
    let now = start;
    const root = tempDir('served');
    makeServedRepo(root, 'fleet.git');
    const events: ForgeEvent[] = [];
    const forge = await startForge({ root, now: () => now, onRequest: (e) => events.push(e) });
    try {
      const url = forge.url('fleet.git');
      const work = tempDir('work');
      await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
      await commitWorkFile(work, 'apps/app.yaml', 'kind: ConfigMap\n', 'first');
      const names = Array.from({ length: agents }, (_, i) => `c${String(i).padStart(2, '0')}`);
      await git(work, [
        'push',
        '-q',
        url,
        'main',
        ...names.map((n) => `main:refs/heads/gitfleet/clusters/${n}`),
      ]);
      const cacheDir = tempDir('cache');
      // Each agent its own gate and its own random draw, spread evenly over [0, 1) so the test is exact.
      const mirrors = names.map((cluster, i) =>
        remoteHubRepo({
          url,
          cacheDir,
          mirrorKey: `agent ${cluster}`,
          sourceRef: `gitfleet/clusters/${cluster}`,
          branchPrefix: 'gitfleet/',
          onlyRefs: agentMirrorRefs('gitfleet/', cluster),
          rateLimits: rateLimitGates({ now: () => now, random: () => i / agents }),
        }),
      );
      forge.limitFor({ forMs: 1000, retryAfterSeconds: 1 });
      const refused = await Promise.all(
        mirrors.map((m) =>
          m.refresh().then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      );
      const retryAt = refused.map((e) => {
        assert.ok(e instanceof RateLimitedError, String(e));
        assert.ok(e.retryAt >= start + 1000, 'at least what the server asked');
        return e.retryAt;
      });
      const comeback = events.length;
      // Each agent asks again when its gate opens, in the order the clock reaches them.
      for (const i of [...retryAt.keys()].sort((a, b) => retryAt[a]! - retryAt[b]!)) {
        now = retryAt[i]!;
        await mirrors[i]!.refresh();
      }
      const reads = events.slice(comeback).filter((e) => e.kind === 'read');
      assert.equal(reads.length, agents * 2, 'every agent came back: an ls-refs and a fetch, none refused');
      const perSecond = new Map<number, number>();
      for (const { at } of reads) {
        const second = Math.floor((at - start) / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      }
      const busiest = Math.max(...perSecond.values());
      assert.ok(busiest <= agents, `at most half the reads in one second: ${JSON.stringify([...perSecond])}`);
      assert.ok(
        Math.max(...retryAt) - Math.min(...retryAt) >= 1500,
        'spread over more than a second and a half',
      );
    } finally {
      await forge.close();
    }
  },
);
