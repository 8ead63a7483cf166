// A repack in a process of its own, for the tests that kill it: `node repack-child.js <gitdir>
// <step>` repacks the repository and, on reaching <step> (repack-packs.ts's RepackStep), prints
// `at <step>` and waits there for ever, so the test's SIGKILL lands exactly at that point.
import { repackPacks, type RepackStep } from '../../src/adapters/git/repack-packs.js';

const [gitdir, stopAt] = process.argv.slice(2) as [string, RepackStep];
const result = await repackPacks({
  gitdir,
  now: Date.now(),
  threads: 0,
  onStep: async (step) => {
    if (step !== stopAt) return;
    process.stdout.write(`at ${step}\n`);
    // A pending promise alone does not keep the process alive: without the timer it could exit
    // before the test's SIGKILL arrives.
    setInterval(() => undefined, 1 << 30);
    await new Promise(() => undefined);
  },
});
process.stdout.write(`done ${result.type}\n`);
