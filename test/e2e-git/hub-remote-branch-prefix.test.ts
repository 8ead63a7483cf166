// A remote hub whose fleet sets its own branchPrefix: the mirror fetches and pushes only the
// branches under the prefix it was opened with, so a FleetConfig naming another one is refused
// with the flag that fixes it, and with `--branch-prefix` the hub writes the branches there.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../cli/run-cli.js';
import { git, gitSync, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer } from '../git-server/start-git-server.js';

after(removeTempDirs);

const exampleFleet = new URL('../../../examples/fleet-repo', import.meta.url).pathname;
const fleetConfig =
  'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: {name: fleet}\nspec: {branchPrefix: fleet/}\n';

test('a remote hub renders a fleet with its own branchPrefix once told the prefix, and says which flag when not', async () => {
  const root = tempDir('served');
  const served = makeServedRepo(root, 'fleet.git');
  const server = await startGitServer({ root });
  try {
    const work = tempDir('work');
    cpSync(exampleFleet, work, { recursive: true });
    writeFileSync(join(work, 'fleet.yaml'), fleetConfig);
    await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    await git(work, ['add', '-A']);
    await git(work, ['commit', '-qm', 'a fleet under fleet/']);
    await git(work, ['push', '-q', server.url('fleet.git'), 'main']);
    const hub = (...extra: string[]) =>
      runCli(['hub', '--repo', server.url('fleet.git'), '--once', '--cache-dir', tempDir('cache'), ...extra]);

    const refused = await hub();
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /branchPrefix is "fleet\/", but this hub mirrors the branches under "gitfleet\/": start it with --branch-prefix fleet\//,
    );
    assert.equal(gitSync(served, ['for-each-ref', 'refs/heads/gitfleet/', 'refs/heads/fleet/']), '');

    const rendered = await hub('--branch-prefix', 'fleet/');
    assert.equal(rendered.code, 0, rendered.stderr);
    const refs = gitSync(served, ['for-each-ref', '--format=%(refname)', 'refs/heads/']).split('\n');
    assert.ok(refs.includes('refs/heads/fleet/bindings'), refs.join('\n'));
    assert.ok(refs.includes('refs/heads/fleet/clusters/aws-eu-prod'), refs.join('\n'));
    assert.ok(!refs.some((r) => r.startsWith('refs/heads/gitfleet/')), 'nothing under the default prefix');
  } finally {
    await server.close();
  }
});
