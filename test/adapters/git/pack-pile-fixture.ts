// Repositories whose objects are spread over many small packs and some loose objects, as a
// long-running hub leaves them: each pack holds one commit (its blobs, trees and the commit)
// on its own branch `refs/heads/pile/<n>`, so `git fsck` checks that every pack's objects stay
// reachable and whole through a repack.
import { buildTreeFromScratch } from '../../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import type { GitObject } from '../../../src/adapters/git/git-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { updateRef } from '../../../src/adapters/git/update-ref.js';
import { writeLooseObjects } from '../../../src/adapters/git/write-loose-objects.js';
import { writePack } from '../../../src/adapters/git/write-pack.js';
import { manifestBlobs } from './git-repo-fixture.js';

const author = { name: 'gitfleet', email: 'hub@gitfleet.invalid', time: 1700000000, tzOffsetMinutes: 0 };

/** Writes one commit on `refs/heads/pile/<n>` as a pack (or loose) and returns its objects. */
export async function addPileCommit(
  gitdir: string,
  n: number,
  opts: { blobs?: number; loose?: boolean; padding?: number } = {},
): Promise<GitObject[]> {
  // Padding the same in every blob makes them similar enough for git to store deltas.
  const pad = opts.padding ? `# ${'shared padding line\n# '.repeat(opts.padding / 22)}\n` : '';
  const blobs = manifestBlobs(opts.blobs ?? 12, `-pile-${n}`).map((b) =>
    pad ? toGitObject('blob', Buffer.concat([Buffer.from(b.content), Buffer.from(pad)])) : b,
  );
  const tree = buildTreeFromScratch(new Map(blobs.map((b, i) => [`ns-${i % 3}/cm-${i}.yaml`, b.oid])));
  const commit = makeCommit({ tree: tree.root, parents: [], author, message: `pile ${n}\n` });
  const objects = [...blobs, ...tree.newObjects, commit];
  if (opts.loose) await writeLooseObjects({ gitdir, objects, fsync: false });
  else await writePack({ gitdir, objects, threads: 0, fsync: false });
  await updateRef({
    gitdir,
    ref: `refs/heads/pile/${n}`,
    newOid: commit.oid,
    expectedOld: null,
    fsync: false,
  });
  return objects;
}

/** Writes `packs` commits as one pack each and `loose` more as loose objects; returns every object. */
export async function pileOfPacks(gitdir: string, packs: number, loose = 0, from = 0): Promise<GitObject[]> {
  const all: GitObject[] = [];
  for (let n = from; n < from + packs; n++) all.push(...(await addPileCommit(gitdir, n)));
  for (let n = from + packs; n < from + packs + loose; n++)
    all.push(...(await addPileCommit(gitdir, n, { loose: true })));
  return all;
}
