// A child process for the stale-lock tests: runs one real updateRefs batch and stops inside its
// ref window, with every lock of the batch taken, until it is killed.
//
//   node build/test/faults/hold-ref-locks.js <gitdir> <ref>=<old>:<new> ...
//
// It stops by blocking, once every lock file exists, the first file read after that: the object
// reader's (read-git-object.ts) reads of the fast-forward checks, which run under the locks. The
// reader reads with node:fs's synchronous calls, so those are replaced (syncBuiltinESMExports
// makes the modules' named imports see the replacements) and the process blocks in them for
// ever. It prints `locked <pid>` first (a write to a pipe is synchronous), so the test knows
// when to kill it.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { updateRefs } from '../../src/adapters/git/update-ref.js';

const [gitdir, ...moves] = process.argv.slice(2);
if (!gitdir || moves.length === 0) throw new Error('usage: hold-ref-locks <gitdir> <ref>=<old>:<new> ...');
const updates = moves.map((m) => {
  const [ref, oids] = m.split('=') as [string, string];
  const [old, next] = oids.split(':') as [string, string];
  return { ref, expectedOld: old, newOid: next };
});
const locks = updates.map((u) => `${gitdir}/${u.ref}.lock`);

/** Blocks for ever once every lock is taken; the test kills the process there. */
function holdIfLocked(): void {
  if (!locks.every((l) => fs.existsSync(l))) return;
  process.stdout.write(`locked ${process.pid}\n`);
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
const { readFileSync, readSync } = fs;
fs.readFileSync = ((...args: Parameters<typeof readFileSync>) => {
  holdIfLocked();
  return readFileSync(...args);
}) as typeof readFileSync;
fs.readSync = ((...args: Parameters<typeof readSync>) => {
  holdIfLocked();
  return (readSync as (...a: unknown[]) => number)(...args);
}) as typeof readSync;
syncBuiltinESMExports();
await updateRefs({ gitdir, updates });
process.stdout.write('moved\n');
process.exit(0);
