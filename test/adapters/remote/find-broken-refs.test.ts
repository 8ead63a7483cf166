// A ref file a kill cut short names no object: the mirror check reports it as broken (so the
// mirror is rebuilt) instead of failing on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBrokenRefs } from '../../../src/adapters/remote/find-broken-refs.js';

const git = (dir: string, args: string[]): string =>
  execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

test('a ref file cut short or holding no object id is reported broken, a whole one is not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-broken-refs-'));
  try {
    git(dir, ['init', '-q', '--bare']);
    const blob = execFileSync('git', ['-C', dir, 'hash-object', '-w', '--stdin'], {
      input: 'x\n',
      encoding: 'utf8',
    }).trim();
    const tree = execFileSync('git', ['-C', dir, 'mktree'], {
      input: `100644 blob ${blob}\tx\n`,
      encoding: 'utf8',
    }).trim();
    const commit = execFileSync('git', ['-C', dir, 'commit-tree', tree, '-m', 'x'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    }).trim();
    git(dir, ['update-ref', 'refs/heads/whole', commit]);
    writeFileSync(join(dir, 'refs', 'heads', 'cut'), commit.slice(0, 17));
    writeFileSync(join(dir, 'refs', 'heads', 'garbage'), 'zz\n');
    const broken = (await findBrokenRefs(dir)).map((b) => b.ref).sort();
    assert.ok(!broken.includes('refs/heads/whole'));
    assert.ok(broken.includes('refs/heads/cut'), `cut short: ${JSON.stringify(broken)}`);
    assert.ok(broken.includes('refs/heads/garbage'), `no object id: ${JSON.stringify(broken)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
