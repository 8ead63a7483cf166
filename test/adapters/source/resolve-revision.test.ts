// resolveRevision against git itself: every revision is resolved by ours and by
// `git rev-parse --verify '<rev>^{commit}'` over one real repository with merges, lightweight,
// annotated and nested tags, a tag of a tree, packed and loose refs, remote-tracking refs with
// an upstream, and reflogs; both must name the same commit, or both must refuse.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../../support/run-git.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { resolveRevision } from '../../../src/adapters/source/resolve-revision.js';
import { GitSourceError } from '../../../src/adapters/source/git-source-error.js';
import { objectStoreFs } from '../../../src/adapters/git/object-store-fs.js';

after(removeTempDirs);

let clock = 1_700_000_000;
function envAt(): NodeJS.ProcessEnv {
  clock += 60;
  const date = `@${clock} +0000`;
  return {
    PATH: process.env.PATH,
    HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@example.com',
    GIT_COMMITTER_NAME: 'C',
    GIT_COMMITTER_EMAIL: 'c@example.com',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

function git(dir: string, ...args: string[]): string {
  return runGit(['-C', dir, ...args], { env: envAt() });
}

function commit(dir: string, file: string, message: string): string {
  writeFileSync(join(dir, file), `${message}\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/** A repository with history enough for every form of gitrevisions(7) that names one commit. */
function historyRepo(): string {
  const dir = tempDir('revisions');
  runGit(['-c', 'init.defaultBranch=main', 'init', '-q', dir], { env: envAt() });
  commit(dir, 'a.txt', 'c1: first');
  commit(dir, 'a.txt', 'c2: second');
  git(dir, 'tag', 'light');
  git(dir, 'tag', '-a', '-m', 'release 1.0', 'v1.0');
  git(dir, 'tag', '-a', '-m', 'a tag of a tag', 'nested', 'v1.0');
  git(dir, 'tag', 'tree-tag', 'HEAD^{tree}');
  git(dir, 'checkout', '-q', '-b', 'feature');
  commit(dir, 'b.txt', 'f1: feature work');
  commit(dir, 'b.txt', 'f2: fix the feature');
  git(dir, 'checkout', '-q', 'main');
  commit(dir, 'a.txt', 'c3: third');
  git(dir, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
  git(dir, 'branch', 'dup');
  git(dir, 'tag', 'dup', 'HEAD~1');
  git(dir, 'update-ref', 'refs/remotes/origin/main', 'HEAD^2');
  git(dir, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
  git(dir, 'config', 'branch.main.remote', 'origin');
  git(dir, 'config', 'branch.main.merge', 'refs/heads/main');
  git(dir, 'config', 'remote.origin.url', '/nonexistent');
  git(dir, 'config', 'remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*');
  // An upstream on a remote no refspec maps: git finds no upstream.
  git(dir, 'config', 'branch.feature.remote', 'nowhere');
  git(dir, 'config', 'branch.feature.merge', 'refs/heads/feature');
  // Pack every ref so far, then move one packed ref loosely: the loose value wins.
  git(dir, 'pack-refs', '--all');
  commit(dir, 'a.txt', 'c4: after packing');
  git(dir, 'update-ref', 'refs/heads/feature', 'feature~1');
  git(dir, 'tag', '-a', '-m', 'release 2.0', 'v2.0');
  commit(dir, 'a.txt', 'c5: latest');
  return dir;
}

function oracle(dir: string, rev: string): string | null {
  // `:/regex` takes the rest of the text as its regex, so no suffix can follow it.
  const asked = rev.startsWith(':/') ? rev : `${rev}^{commit}`;
  try {
    const out = runGit(['-C', dir, 'rev-parse', '--verify', '-q', '--end-of-options', asked], {
      env: envAt(),
    });
    // `^<rev>` is printed as `^<id>`: an exclusion, a range's bound, not one commit.
    return out.startsWith('^') ? null : out;
  } catch {
    return null;
  }
}

async function ours(dir: string, rev: string): Promise<string | GitSourceError> {
  const gitdir = join(dir, '.git');
  try {
    return await resolveRevision({ dir, gitdir, fs: objectStoreFs(gitdir), cache: {} }, rev);
  } catch (error) {
    if (error instanceof GitSourceError) return error;
    throw error;
  }
}

const revisions = [
  'HEAD',
  '@',
  'main',
  'refs/heads/main',
  'heads/main',
  'feature',
  'light',
  'v1.0',
  'v2.0',
  'nested',
  'tags/v1.0',
  'refs/tags/nested',
  'origin/main',
  'origin',
  'remotes/origin/main',
  'dup',
  'HEAD~1',
  'HEAD~',
  'main~2',
  'main~3',
  'HEAD^',
  'HEAD~2^2',
  'HEAD~2^2~1',
  'HEAD^0',
  'main^^',
  'HEAD~2^1',
  'v1.0^{commit}',
  'v1.0^{}',
  'nested^{}',
  'nested^{commit}~1',
  'v1.0^{tag}',
  'nested^{tag}^{}',
  'v1.0^{object}',
  'light^{tag}',
  'HEAD^{tree}',
  'tree-tag',
  'tree-tag^{}',
  'light^{blob}',
  'HEAD:a.txt',
  'HEAD~100',
  'HEAD~2^3',
  'main..feature',
  '^main',
  'HEAD^!',
  ':/fix',
  ':/second',
  ':/^c3',
  ':/no such message',
  'HEAD^{/feature}',
  'main~1^{/c2}',
  'HEAD^{/^c1}~0',
  'main@{1}',
  'main@{0}',
  'HEAD@{2}',
  '@{1}',
  'main@{100}',
  'main@{u}',
  '@{upstream}',
  'feature@{u}',
  'nope',
  'refs/heads/nope',
  'config',
  'description',
  '',
  'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef',
  'HEAD~',
  'main~0',
  'v2.0~1^{commit}',
];

test('every revision names the commit git rev-parse names, or is refused where git refuses it', async () => {
  const dir = historyRepo();
  const head = git(dir, 'rev-parse', 'HEAD');
  const forms = [
    ...revisions,
    head,
    head.slice(0, 7),
    head.slice(0, 12).toUpperCase(),
    git(dir, 'rev-parse', 'HEAD~2').slice(0, 9),
    git(dir, 'rev-parse', 'v1.0').slice(0, 10),
    git(dir, 'describe', '--tags', '--long', 'HEAD'),
    git(dir, 'describe', '--tags', 'HEAD~1'),
    `${git(dir, 'describe', '--tags', '--long', 'HEAD~2')}~1`,
  ];
  const mismatches: string[] = [];
  for (const rev of forms) {
    const want = oracle(dir, rev);
    const got = await ours(dir, rev);
    const gotText = typeof got === 'string' ? got : `refused (${got.message})`;
    if (want === null ? typeof got === 'string' : got !== want) {
      mismatches.push(`${rev}: git says ${want ?? 'refused'}, ours ${gotText}`);
    }
  }
  assert.deepEqual(mismatches, []);
});

test('a revision that names nothing says so, naming the repository and what was tried', async () => {
  const dir = historyRepo();
  const got = await ours(dir, 'nope');
  assert.ok(got instanceof GitSourceError);
  assert.equal(got.code, 'RefNotFound');
  assert.equal(
    got.message,
    `revision 'nope' in ${dir}: names no commit (no ref nope, refs/nope, refs/tags/nope, refs/heads/nope, ` +
      'refs/remotes/nope, refs/remotes/nope/HEAD)',
  );
  const tree = await ours(dir, 'HEAD^{tree}');
  assert.ok(tree instanceof GitSourceError);
  assert.equal(tree.code, 'NotACommit');
  assert.match(tree.message, /\^\{tree\} names a tree, and a tree is not a commit/);
  const range = await ours(dir, 'main..feature');
  assert.ok(range instanceof GitSourceError);
  assert.match(range.message, /a range \(\.\.\), not one commit/);
  const date = await ours(dir, 'main@{yesterday}');
  assert.ok(date instanceof GitSourceError);
  assert.match(date.message, /is not supported/);
});

test('an abbreviation two commits share is ambiguous and lists them; one commit among other objects wins', async () => {
  const dir = tempDir('ambiguous');
  runGit(['-c', 'init.defaultBranch=main', 'init', '-q', dir], { env: envAt() });
  // Enough commits (with their trees and blobs) that some 4-digit prefixes are shared, made in one fast-import.
  const stream: string[] = [];
  for (let i = 1; i <= 700; i++) {
    const body = `n${i}\n`;
    const message = `commit ${i}\n`;
    stream.push(
      'commit refs/heads/main',
      `committer C <c@example.com> ${1_700_000_000 + i} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message.slice(0, -1),
      `M 100644 inline f.txt`,
      `data ${Buffer.byteLength(body)}`,
      body.slice(0, -1),
      '',
    );
  }
  runGit(['-C', dir, 'fast-import', '--quiet'], { env: envAt(), input: `${stream.join('\n')}\n` });
  const objects = runGit(
    ['-C', dir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'],
    {
      env: envAt(),
    },
  )
    .split('\n')
    .map((l) => l.split(' ') as [string, string]);
  const byPrefix = new Map<string, { commits: string[]; others: string[] }>();
  for (const [oid, type] of objects) {
    const entry = byPrefix.get(oid.slice(0, 4)) ?? { commits: [], others: [] };
    (type === 'commit' ? entry.commits : entry.others).push(oid);
    byPrefix.set(oid.slice(0, 4), entry);
  }
  const shared = [...byPrefix].find(([, e]) => e.commits.length >= 2);
  const single = [...byPrefix].find(([, e]) => e.commits.length === 1 && e.others.length >= 1);
  assert.ok(shared && single, 'the repository has both kinds of prefix');
  const [prefix, { commits }] = shared;
  assert.equal(oracle(dir, prefix), null, 'git refuses it too');
  const got = await ours(dir, prefix);
  assert.ok(got instanceof GitSourceError, String(got));
  assert.equal(got.code, 'AmbiguousRef');
  for (const oid of commits) assert.ok(got.message.includes(`${oid} (commit)`), got.message);
  const [one, entry] = single;
  assert.equal(await ours(dir, one), entry.commits[0]);
  assert.equal(oracle(dir, one), entry.commits[0]);
});
