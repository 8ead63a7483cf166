// A reader in a process of its own, for the test that repacks under it: `node
// read-objects-child.js <gitdir> <file of ids>` reads every listed object again and again, as a
// hub's passes do (a new object store per sweep, one pack cache for the process), checks each
// one hashes to its id, and prints `sweep <n> <errors>` after each sweep and `error <id>
// <message>` for each failed read. It stops, printing `done <sweeps> <errors>`, once its stdin closes.
import { readFileSync } from 'node:fs';
import { hashObject } from '../../src/adapters/git/hash-object.js';
import type { GitObjectType } from '../../src/adapters/git/git-object.js';
import { openObjectStore, readStoredObject } from '../../src/adapters/git/object-store.js';

const [gitdir, idFile] = process.argv.slice(2) as [string, string];
const oids = readFileSync(idFile, 'utf8').split('\n').filter(Boolean);
let stopping = false;
process.stdin.on('end', () => (stopping = true)).resume();
const cache = {};
let sweeps = 0;
let errors = 0;
while (!stopping) {
  const store = openObjectStore(gitdir, cache);
  for (const oid of oids) {
    try {
      const { type, content } = await readStoredObject(store, oid);
      if (hashObject(type as GitObjectType, content) !== oid)
        throw new Error('content does not hash to its id');
    } catch (error) {
      errors++;
      process.stdout.write(`error ${oid} ${String((error as Error).message).split('\n')[0]}\n`);
    }
  }
  sweeps++;
  process.stdout.write(`sweep ${sweeps} ${errors}\n`);
  // The reads are synchronous behind their promises: let the output and stdin's end through.
  await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(`done ${sweeps} ${errors}\n`);
