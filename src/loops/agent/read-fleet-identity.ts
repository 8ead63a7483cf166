// The fleet an agent serves, when `--fleet` does not name it: the root commit of its cluster
// branch (the first commit the hub wrote there). It is the same for every agent and every
// restart of one fleet repository (a mirror or clone keeps the commit ids), and differs between
// two fleet repositories even when both name a cluster member1, because the hub's first render
// commit names its own source commit. A cluster branch is never deleted and rewritten (a removed
// cluster gets a tombstone commit, DESIGN.md §3), so the root does not change; a repository
// rebuilt from scratch is a new fleet unless `--fleet` keeps the old name (docs/agent-pruning.md).
import { withCache } from '../../adapters/git/read-git-object.js';
import { readCommit } from '../../adapters/git/read-typed-object.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import type { AgentMemory } from './agent-memory.js';

/** The fleet's identity cannot be found: the cluster branch's history does not read to its root. */
export class FleetIdentityError extends GitfleetError<'FleetIdentityUnknown'> {
  constructor(message: string) {
    super(message, { code: 'FleetIdentityUnknown' });
  }
}

/** Returns the fleet identity: `given` (the --fleet flag), else the one found before, else the cluster branch's root commit. */
export async function fleetIdentity(opts: {
  given: string | undefined;
  memory: AgentMemory;
  gitdir: string;
  cluster: string;
  head: string;
}): Promise<string> {
  if (opts.given !== undefined) return opts.given;
  if (opts.memory.fleet !== undefined) return opts.memory.fleet;
  const root = await readFleetIdentity(opts.gitdir, opts.head);
  if (root === undefined) {
    throw new FleetIdentityError(
      `${opts.cluster}: the fleet identity (the root commit of its cluster branch) cannot be found: the branch's history from ${opts.head.slice(0, 12)} does not read to its first commit; name the fleet with --fleet`,
    );
  }
  opts.memory.fleet = root;
  return root;
}

/** Returns the root commit of the first-parent history of `head`, or undefined when some commit cannot be read. */
export async function readFleetIdentity(gitdir: string, head: string): Promise<string | undefined> {
  const source = withCache({ gitdir });
  let oid = head;
  for (;;) {
    let parents: string[];
    try {
      parents = (await readCommit(source, oid)).parents;
    } catch {
      return undefined;
    }
    const first = parents[0];
    if (first === undefined) return oid;
    oid = first;
  }
}
