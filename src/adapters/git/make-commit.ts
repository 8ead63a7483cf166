// Commit objects, byte for byte as `git commit-tree` writes them:
//
//   tree <id>
//   parent <id>                      (one line per parent, in order)
//   author <name> <<email>> <seconds> <+hhmm>
//   committer <name> <<email>> <seconds> <+hhmm>
//
//   <message, ending in a newline>
//
// The clock is the caller's: time is passed in, never read here.
import type { GitObject } from './git-object.js';
import { GitWriteError } from './git-write-error.js';
import { toGitObject } from './hash-object.js';

/** Who made a commit and when: seconds since the epoch and the zone in minutes east of UTC. */
export interface GitSignature {
  name: string;
  email: string;
  time: number;
  tzOffsetMinutes: number;
}

export interface CommitInput {
  tree: string;
  parents: readonly string[];
  author: GitSignature;
  /** Defaults to the author. */
  committer?: GitSignature;
  /** A newline is added when it does not end in one, as git does. */
  message: string;
}

const oidPattern = /^[0-9a-f]{40}$/;

/** Returns the commit object for the given tree, parents, signatures and message, with its id. */
export function makeCommit(input: CommitInput): GitObject {
  for (const oid of [input.tree, ...input.parents]) {
    if (!oidPattern.test(oid)) throw new GitWriteError('InvalidObjectId', `${oid}: not an object id`);
  }
  const lines = [`tree ${input.tree}`, ...input.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${formatSignature(input.author)}`);
  lines.push(`committer ${formatSignature(input.committer ?? input.author)}`);
  const message = input.message.endsWith('\n') ? input.message : `${input.message}\n`;
  return toGitObject('commit', Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8'));
}

/** Returns `<name> <<email>> <seconds> <+hhmm>`, or throws for what git would refuse. */
export function formatSignature(s: GitSignature): string {
  if (/[<>\n]/.test(s.name) || /[<>\n]/.test(s.email)) {
    throw new GitWriteError(
      'InvalidIdentity',
      `${s.name} <${s.email}>: '<', '>' and newlines are not allowed`,
    );
  }
  if (!Number.isSafeInteger(s.time) || s.time < 0) {
    throw new GitWriteError(
      'InvalidIdentity',
      `${s.name}: time ${s.time} is not whole seconds since the epoch`,
    );
  }
  return `${s.name} <${s.email}> ${s.time} ${formatZone(s.tzOffsetMinutes)}`;
}

function formatZone(minutes: number): string {
  if (!Number.isInteger(minutes) || Math.abs(minutes) > 99 * 60 + 59) {
    throw new GitWriteError(
      'InvalidIdentity',
      `zone offset ${minutes} min: not a whole number of minutes within ±99:59`,
    );
  }
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${minutes < 0 ? '-' : '+'}${hhmm}`;
}
