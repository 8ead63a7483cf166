// A mirror whose refs point at objects it does not hold (a disk error, a copy cut short, a
// fetch of an older gitfleet that moved refs before storing the pack) fails every pass, and a
// fetch cannot mend it: the client tells the server it has those commits. Finding one means
// rebuilding the mirror (remote-hub-repo.ts).
import { listRefNames } from '../git/list-refs.js';
import { readPackedRefs, readRef } from '../git/read-ref.js';
import { mirrorRemote } from './mirror-layout.js';
import { openObjectReader } from './object-reader.js';

/** Returns the branches and tracking refs of the mirror that point at a missing object. */
export async function findBrokenRefs(gitdir: string): Promise<{ ref: string; oid: string }[]> {
  // packed-refs read once: a ref that is not loose would read it again each time.
  const packed = await readPackedRefs(gitdir);
  const refs = [
    ...(await listRefNames(gitdir, 'refs/heads/', packed)),
    ...(await listRefNames(gitdir, `refs/remotes/${mirrorRemote}/`, packed)).filter(
      (n) => n !== `refs/remotes/${mirrorRemote}/HEAD`,
    ),
  ];
  const broken: { ref: string; oid: string }[] = [];
  const reader = await openObjectReader(gitdir);
  try {
    for (const ref of refs) {
      const oid = await readRef(gitdir, ref, packed);
      if (oid !== null && !(await reader.has(oid))) broken.push({ ref, oid });
    }
  } finally {
    await reader.close();
  }
  return broken;
}
