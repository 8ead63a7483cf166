// A push once the remote's capabilities are known goes without receive-pack's advertisement
// (push-refs.ts): against the mirror's view, checked by receive-pack under its lock. Against a
// real git http-backend: the second push of a branch reads no advertisement; a view that went
// stale (another writer, a branch deleted and its commits pruned, a heartbeat replaced by someone
// else) costs a refused request and a push planned from the advertisement, with the outcome the
// advertisement alone would give.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';
import type { RemoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { git, removeTempDirs, tempDir } from '../../git-server/git-cli.js';
import {
  commitInMirror,
  commitWorkFile,
  pushedByAnother,
  revParse,
  withServedHub,
  type ServedFleet,
} from './remote-fixture.js';

after(removeTempDirs);

const cluster = 'refs/heads/gitfleet/clusters/x';
const heartbeat = 'refs/heads/gitfleet/heartbeat/x';
const slow = { timeout: 120_000 };

/** What the server saw during `work`: advertisements of receive-pack read, pushes posted. */
async function seenDuring(fleet: ServedFleet, work: () => Promise<unknown>) {
  const from = fleet.server.requests.length;
  await work();
  const seen = fleet.server.requests.slice(from);
  return {
    advertisements: seen.filter((r) => r.method === 'GET' && r.query === '?service=git-receive-pack').length,
    posts: seen.filter((r) => r.method === 'POST' && r.path.endsWith('/git-receive-pack')).length,
  };
}

/** Runs `body` with the hub's mirror refreshed and a commit maker for it (file a.yaml, or heartbeat.yaml). */
function withHub(body: (fleet: ServedFleet, hub: RemoteHubRepo, commit: Commit) => Promise<void>) {
  return withServedHub({ branchPrefix: 'gitfleet/' }, async (fleet, hub) => {
    await hub.refresh();
    await body(fleet, hub, (text, parents = [], file = 'a.yaml') =>
      commitInMirror({ gitdir: hub.gitdir, files: { [file]: text }, parents, message: text }),
    );
  });
}
type Commit = (text: string, parents?: string[], file?: string) => Promise<string>;

const fsckClean = (gitdir: string) => git(gitdir, ['fsck', '--strict', '--no-progress']).then(() => true);

test('the second push of a branch goes without the advertisement, in one request', slow, async () => {
  await withHub(async (fleet, hub, commit) => {
    const c1 = await commit('1\n');
    const first = await seenDuring(fleet, () => hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]));
    assert.deepEqual(first, { advertisements: 1, posts: 1 });
    const c2 = await commit('2\n', [c1]);
    const second = await seenDuring(fleet, () => hub.publish([{ ref: cluster, oldOid: c1, newOid: c2 }]));
    assert.deepEqual(second, { advertisements: 0, posts: 1 });
    assert.equal(await revParse(fleet.served, cluster), c2);
    assert.equal(await revParse(hub.gitdir, cluster), c2);
    assert.equal(await fsckClean(fleet.served), true);
  });
});

test(
  'a push whose branch another writer moved is refused, then rejected as PushRejected; the server keeps theirs',
  slow,
  async () => {
    await withHub(async (fleet, hub, commit) => {
      const c1 = await commit('1\n');
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]);
      const theirs = await pushedByAnother(fleet, 'gitfleet/clusters/x', 'theirs\n');
      const ours = await commit('2\n', [c1]);
      let rejected: unknown;
      const seen = await seenDuring(fleet, async () => {
        rejected = await hub.publish([{ ref: cluster, oldOid: c1, newOid: ours }]).catch((e: unknown) => e);
      });
      assert.ok(rejected instanceof RemoteError && rejected.code === 'PushRejected', String(rejected));
      assert.match(rejected.message, /the remote is at [0-9a-f]{40}, expected [0-9a-f]{40}/);
      // The push without the advertisement, refused; then the advertisement, which rejects it before sending.
      assert.deepEqual(seen, { advertisements: 1, posts: 1 });
      assert.equal(await revParse(fleet.served, cluster), theirs);
    });
  },
);

test(
  'a branch deleted on the server with its commits pruned is created again from the advertisement',
  slow,
  async () => {
    await withHub(async (fleet, hub, commit) => {
      const c1 = await commit('1\n');
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]);
      await git(fleet.served, ['update-ref', '-d', cluster]);
      await git(fleet.served, ['reflog', 'expire', '--all', '--expire=now']);
      await git(fleet.served, ['gc', '-q', '--prune=now']);
      assert.equal(
        await git(fleet.served, ['cat-file', '-e', c1]).then(
          () => 'there',
          () => 'gone',
        ),
        'gone',
      );
      // The mirror still tracks c1 there: the first try sends c2 alone, against c1.
      const c2 = await commit('2\n', [c1]);
      const seen = await seenDuring(fleet, () => hub.publish([{ ref: cluster, oldOid: c1, newOid: c2 }]));
      assert.deepEqual(seen, { advertisements: 1, posts: 2 });
      assert.equal(await revParse(fleet.served, cluster), c2);
      assert.equal(await fsckClean(fleet.served), true);
    });
  },
);

test(
  "a heartbeat another writer replaced is replaced again: refused against the mirror's value, then sent against the remote's",
  slow,
  async () => {
    await withHub(async (fleet, hub, commit) => {
      const beat = (n: number) => commit(`${n}\n`, [], 'heartbeat.yaml');
      const b1 = await beat(1);
      await hub.publish([{ ref: heartbeat, oldOid: null, newOid: b1, replace: true }]);
      const b2 = await beat(2);
      const quiet = await seenDuring(fleet, () =>
        hub.publish([{ ref: heartbeat, oldOid: b1, newOid: b2, replace: true }]),
      );
      assert.deepEqual(quiet, { advertisements: 0, posts: 1 });
      const other = tempDir('other-beat');
      await git(other, ['-c', 'init.defaultBranch=main', 'init', '-q']);
      await commitWorkFile(other, 'heartbeat.yaml', 'theirs\n', 'their heartbeat');
      await git(other, ['push', '-q', '--force', fleet.url, 'HEAD:refs/heads/gitfleet/heartbeat/x']);
      const b3 = await beat(3);
      const seen = await seenDuring(fleet, () =>
        hub.publish([{ ref: heartbeat, oldOid: b2, newOid: b3, replace: true }]),
      );
      assert.deepEqual(seen, { advertisements: 1, posts: 2 });
      assert.equal(await revParse(fleet.served, heartbeat), b3);
    });
  },
);

test(
  'objects the caller walked are sent as they are, with no walk of the push; a list that lacks one is refused and the push planned afresh',
  slow,
  async () => {
    await withHub(async (fleet, hub, commit) => {
      const c1 = await commit('1\n');
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]);
      const c2 = await commit('2\n', [c1]);
      const needed = (await git(hub.gitdir, ['rev-list', '--objects', `${c1}..${c2}`]))
        .split('\n')
        .map((line) => line.split(' ')[0]!);
      // An object nothing reaches, listed too: the server holding it afterwards shows the list was sent as it is.
      const file = join(tempDir('extra-object'), 'extra.txt');
      writeFileSync(file, 'listed alone\n');
      const extra = await git(hub.gitdir, ['hash-object', '-w', file]);
      const listed = await seenDuring(fleet, () =>
        hub.publish([{ ref: cluster, oldOid: c1, newOid: c2 }], [...needed, extra]),
      );
      assert.deepEqual(listed, { advertisements: 0, posts: 1 });
      assert.equal(await revParse(fleet.served, cluster), c2);
      assert.equal(await git(fleet.served, ['cat-file', '-t', extra]), 'blob');
      // A list without the new commit: receive-pack refuses the pack, the advertisement plans it again.
      const c3 = await commit('3\n', [c2]);
      const short = await seenDuring(fleet, () =>
        hub.publish([{ ref: cluster, oldOid: c2, newOid: c3 }], []),
      );
      assert.deepEqual(short, { advertisements: 1, posts: 2 });
      assert.equal(await revParse(fleet.served, cluster), c3);
      assert.equal(await fsckClean(fleet.served), true);
    });
  },
);
