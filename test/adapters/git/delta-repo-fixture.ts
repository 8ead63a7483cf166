// Repositories whose packs hold delta chains, made with the git command line, and git's own
// reading of every object (`git cat-file --batch-all-objects`) to compare a reader against.
import { execFileSync } from 'node:child_process';
import { testGitEnv } from '../../git-env.js';
import { git, makeRepo, type TestRepo } from './git-repo-fixture.js';

/** An object as git reads it. */
export interface OracleObject {
  oid: string;
  type: string;
  content: Buffer;
}

/**
 * Returns a bare repository with `commits` commits of `files` similar text files, each commit
 * changing a few lines of each, so that a repack stores most versions as deltas of another.
 */
export function makeHistoryRepo(opts: { commits: number; files: number; lines?: number }): TestRepo {
  const repo = makeRepo({ bare: true });
  const lines = opts.lines ?? 60;
  const parts: string[] = [];
  for (let c = 0; c < opts.commits; c++) {
    parts.push('commit refs/heads/main', `committer T <t@example.com> ${1_700_000_000 + c} +0000`);
    const message = `change ${c}`;
    parts.push(`data ${message.length}`, message);
    for (let f = 0; f < opts.files; f++) {
      const text = Array.from(
        { length: lines },
        (_, l) => `line ${l} of file ${f}: ${l % 7 === c % 7 ? `version ${c}` : 'the same in every version'}`,
      ).join('\n');
      parts.push(`M 100644 inline dir${f % 3}/file-${f}.txt`, `data ${Buffer.byteLength(text)}`, text);
    }
  }
  git(repo, ['fast-import', '--quiet'], `${parts.join('\n')}\n`);
  return repo;
}

/** Returns every object of the repository as `git cat-file` reads it. */
export function catAllObjects(repo: TestRepo): OracleObject[] {
  const out = execFileSync(
    'git',
    ['--git-dir', repo.gitdir, 'cat-file', '--batch-all-objects', '--batch', '--unordered'],
    { env: testGitEnv, maxBuffer: 1 << 28 },
  );
  const objects: OracleObject[] = [];
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(0x0a, at);
    const [oid, type, size] = out.toString('latin1', at, nl).split(' ');
    const start = nl + 1;
    objects.push({ oid: oid!, type: type!, content: out.subarray(start, start + Number(size)) });
    at = start + Number(size) + 1;
  }
  return objects;
}
