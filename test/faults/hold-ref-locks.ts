// A child process for the stale-lock tests: runs one real updateRefs batch and stops inside its
// ref window, with every lock of the batch taken, until it is killed.
//
//   node build/test/faults/hold-ref-locks.js <gitdir> <ref>=<old>:<new> ...
//
// It stops by giving updateRefs a file system whose object reads never answer once every lock
// file exists: the fast-forward checks, which run under the locks, then wait for ever. It prints
// `locked <pid>` when it is there, so the test knows when to kill it.
import fs from 'node:fs';
import { updateRefs } from '../../src/adapters/git/update-ref.js';
import type { GitFs } from '../../src/adapters/git/read-git-object.js';

const [gitdir, ...moves] = process.argv.slice(2);
if (!gitdir || moves.length === 0) throw new Error('usage: hold-ref-locks <gitdir> <ref>=<old>:<new> ...');
const updates = moves.map((m) => {
  const [ref, oids] = m.split('=') as [string, string];
  const [old, next] = oids.split(':') as [string, string];
  return { ref, expectedOld: old, newOid: next };
});
const locks = updates.map((u) => `${gitdir}/${u.ref}.lock`);
let told = false;
const holding: GitFs = {
  promises: {
    ...fs.promises,
    readFile: ((path: string, options?: unknown) => {
      if (locks.every((l) => fs.existsSync(l))) {
        if (!told) process.stdout.write(`locked ${process.pid}\n`);
        told = true;
        return new Promise(() => undefined);
      }
      return fs.promises.readFile(path, options as undefined);
    }) as typeof fs.promises.readFile,
  },
} as GitFs;
// Keep the process alive while the read waits (a pending promise alone does not).
setInterval(() => undefined, 1 << 30);
await updateRefs({ gitdir, updates, fs: holding });
process.stdout.write('moved\n');
process.exit(0);
