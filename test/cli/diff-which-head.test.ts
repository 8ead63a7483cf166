// `gitfleet diff <repo> <base> <head>` says which repository and commits it compared, and
// refuses a HEAD that would be read in a bare <repo> while the user works in another
// repository (an unpushed commit in the clone used to give a silent "no change"). Run as a
// child process, so the working directory is the user's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, commitAll, git, initRepo, tempDir } from '../adapters/source/git-fixture.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');
const bin = join(repoRoot, 'bin/gitfleet.js');
after(cleanup);

/** A bare repository holding the example fleet on main, and a clone with one unpushed commit (web scaled). */
function bareAndClone(): { bare: string; clone: string; pushed: string; unpushed: string } {
  const work = initRepo();
  cpSync(join(repoRoot, 'examples/fleet-repo'), work, { recursive: true });
  const pushed = commitAll(work, 'the fleet');
  const bare = join(tempDir('bare'), 'fleet.git');
  git(work, 'clone', '-q', '--bare', work, bare);
  const clone = join(tempDir('clone'), 'fleet');
  git(work, 'clone', '-q', bare, clone);
  const web = join(clone, 'apps/shop/web.yaml');
  writeFileSync(web, readFileSync(web, 'utf8').replace('replicas: 10', 'replicas: 12'));
  const unpushed = commitAll(clone, 'scale web');
  return { bare, clone, pushed, unpushed };
}

function diff(cwd: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [bin, 'diff', ...args], { cwd, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('diff of a bare repository run from inside a clone refuses HEAD, saying which HEAD it would read and how to name it', () => {
  const { bare, clone, pushed } = bareAndClone();
  for (const head of ['HEAD', '@', 'HEAD~0', '@{u}']) {
    const run = diff(clone, [bare, 'main', head]);
    assert.equal(run.code, 2, `${head}: ${run.stdout}${run.stderr}`);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      new RegExp(`revision '${head.replace(/[{}~@]/g, (c) => `\\${c}`)}' is ambiguous`),
    );
    assert.match(run.stderr, /is a bare repository and this runs inside another repository/);
    assert.match(run.stderr, new RegExp(`its HEAD, refs/heads/main \\(${pushed.slice(0, 7)}\\)`));
    assert.match(run.stderr, /Say which commit you mean: a branch of .* \(e\.g\. main\), or a commit id/);
  }
  // The base side is checked the same way.
  assert.equal(diff(clone, [bare, 'HEAD', 'main']).code, 2);
  // Named explicitly, it runs.
  assert.equal(diff(clone, [bare, 'main', 'main']).code, 0);
});

test('HEAD is unambiguous from outside any repository, from the bare repository itself, and in a clone given as <repo>', () => {
  const { bare, clone, pushed, unpushed } = bareAndClone();
  const outside = diff(tempDir('elsewhere'), [bare, 'main', 'HEAD']);
  assert.equal(outside.code, 0, outside.stderr);
  const inBare = diff(bare, ['.', 'main', 'HEAD']);
  assert.equal(inBare.code, 0, inBare.stderr);
  // The clone as <repo>: its own HEAD, the unpushed commit, and the change it makes.
  const own = diff(clone, ['.', 'origin/main', 'HEAD']);
  assert.equal(own.code, 6, own.stderr);
  const lines = own.stdout.split('\n');
  assert.match(lines[0]!, /^# verdict: /);
  assert.match(lines[1]!, /^# state: /);
  assert.equal(
    lines[2],
    `# compared: repository ${realpathSync(clone)}/.git; base 'origin/main' (refs/remotes/origin/main) ${pushed.slice(0, 7)} "the fleet"; head 'HEAD' (refs/heads/main) ${unpushed.slice(0, 7)} "scale web"`,
  );
});

test('the compared repository and sides are in the markdown and, as fields, in the JSON', () => {
  const { clone, pushed, unpushed } = bareAndClone();
  const markdown = diff(clone, ['.', pushed.slice(0, 10), 'main', '--format', 'markdown']);
  assert.equal(markdown.code, 6, markdown.stderr);
  assert.match(
    markdown.stdout,
    new RegExp(
      `^_compared: repository \\S+/\\.git; base '${pushed.slice(0, 10)}' ${pushed.slice(0, 7)} "the fleet"; head 'main' \\(refs/heads/main\\) ${unpushed.slice(0, 7)} "scale web"_$`,
      'm',
    ),
  );
  const json = diff(clone, ['.', pushed, 'HEAD', '--format', 'json']);
  assert.equal(json.code, 6, json.stderr);
  const report = JSON.parse(json.stdout) as Record<string, unknown>;
  assert.equal(report.repository, `${realpathSync(clone)}/.git`);
  assert.deepEqual(report.base, {
    ref: pushed,
    resolved: null,
    commit: pushed,
    abbrev: pushed.slice(0, 7),
    subject: 'the fleet',
  });
  assert.deepEqual(report.head, {
    ref: 'HEAD',
    resolved: 'refs/heads/main',
    commit: unpushed,
    abbrev: unpushed.slice(0, 7),
    subject: 'scale web',
  });
});

test('in a linked work tree of a bare repository, HEAD of the bare one is refused and HEAD of the work tree is its own', () => {
  const { bare, pushed } = bareAndClone();
  const tree = join(tempDir('worktree'), 'feature');
  git(bare, 'worktree', 'add', '-q', '-b', 'feature', tree);
  const web = join(tree, 'apps/shop/web.yaml');
  writeFileSync(web, readFileSync(web, 'utf8').replace('replicas: 10', 'replicas: 14'));
  const feature = commitAll(tree, 'scale web on a feature branch');
  const refused = diff(tree, [bare, 'main', 'HEAD']);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /revision 'HEAD' is ambiguous/);
  const own = diff(tree, ['.', 'main', 'HEAD']);
  assert.equal(own.code, 6, own.stderr);
  assert.match(
    own.stdout.split('\n')[2]!,
    new RegExp(
      `^# compared: .*; base 'main' \\(refs/heads/main\\) ${pushed.slice(0, 7)} "the fleet"; head 'HEAD' \\(refs/heads/feature\\) ${feature.slice(0, 7)} "scale web on a feature branch"$`,
    ),
  );
});
