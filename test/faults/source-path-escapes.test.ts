// Fault: a fleet repository that tries to make the renderer read outside it: a symbolic link to
// a file elsewhere on the hub's machine, a link climbing out with `..`, a submodule. Whoever can
// push to the fleet repo must not be able to publish the hub machine's files to every cluster
// branch. Links and submodules are not fleet files, whether the fleet is read from a commit or
// from a directory, and both reads give the same render.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../cli/run-cli.js';
import { gitSync } from '../git-server/git-cli.js';
import { repoRoot, scratchDir, removeScratch } from './fault-fixture.js';

after(removeScratch);

const secret =
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: stolen, namespace: default}\ndata: {key: hub-machine-only}\n';

/** Returns every file under a directory with its content. */
function filesUnder(dir: string, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      for (const [p, c] of filesUnder(path, `${prefix}${name}/`)) found.set(p, c);
    else found.set(`${prefix}${name}`, readFileSync(path, 'utf8'));
  }
  return found;
}

test('symbolic links out of the fleet and submodules are not read, from a commit or a directory', async () => {
  const dir = scratchDir('escape');
  const outside = join(dir, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'stolen.yaml'), secret);
  const work = join(dir, 'work');
  cpSync(join(repoRoot, 'examples/fleet-repo'), work, { recursive: true });
  symlinkSync(join(outside, 'stolen.yaml'), join(work, 'apps/absolute-link.yaml'));
  symlinkSync('../../outside/stolen.yaml', join(work, 'apps/relative-link.yaml'));
  symlinkSync(outside, join(work, 'apps/linked-dir'));
  gitSync(dir, ['-c', 'init.defaultBranch=main', 'init', '-q', 'work']);
  gitSync(work, ['add', '-A']);
  // A submodule entry (mode 160000) pointing at some commit: nothing to read, nothing to follow.
  gitSync(work, ['commit', '-qm', 'fleet with links']);
  const commit = gitSync(work, ['rev-parse', 'HEAD']);
  gitSync(work, ['update-index', '--add', '--cacheinfo', `160000,${commit},apps/submodule`]);
  gitSync(work, ['commit', '-qm', 'and a submodule']);

  const fromCommit = await runCli(['render', work, '--ref', 'main', '--out', join(dir, 'out-commit')]);
  assert.equal(fromCommit.code, 0, fromCommit.stderr);
  const fromDirectory = await runCli(['render', work, '--out', join(dir, 'out-dir')]);
  assert.equal(fromDirectory.code, 0, fromDirectory.stderr);

  const rendered = filesUnder(join(dir, 'out-commit'));
  assert.ok(rendered.size > 10, 'the fleet itself rendered');
  for (const [path, content] of rendered) {
    assert.doesNotMatch(path, /stolen/, `${path}: nothing from outside the fleet is rendered`);
    assert.doesNotMatch(content, /hub-machine-only/, `${path}: no content from outside the fleet`);
  }
  assert.deepEqual(filesUnder(join(dir, 'out-dir')), rendered, 'a commit and a directory render the same');
});
