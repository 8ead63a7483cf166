// `gitfleet ui` as a user starts it (issue 27 point 13): the startup line never shows a URL's
// password, and a bind that is not loopback says that the read-only page is open to the
// network. Real processes of bin/gitfleet.js; a real smart-HTTP git server for the URL.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { gitEnv, exampleFleetRepo, removeFleetRepos, repoRoot } from '../loops/hub/hub-fixture.js';
import { serveFleet } from '../adapters/remote/remote-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeFleetRepos);
after(removeTempDirs);

/** Starts `gitfleet ui …`, waits for its serving line, stops it; returns all it printed. */
async function startupOutput(args: string[]): Promise<{ out: string; err: string; code: number | null }> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/gitfleet.js'), 'ui', '--port', '0', ...args], {
    env: gitEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (/serving .* at http/.test(out)) resolve();
    });
    void exited.then(() => resolve());
  });
  child.kill('SIGTERM');
  return { out, err, code: await exited };
}

test('the startup line of ui --repo https://user:secret@… names the repository without the password', async (t) => {
  const fleet = await serveFleet();
  t.after(() => fleet.server.close().catch(() => undefined));
  const url = fleet.url.replace('://', '://fleet-reader:s3cret-Passw0rd@');
  const run = await startupOutput(['--repo', url, '--cache-dir', tempDir('ui-mirrors')]);
  assert.match(
    run.out,
    /gitfleet ui: serving http:\/\/\*\*\*@127\.0\.0\.1:\d+\/fleet\.git at http:/,
    run.out + run.err,
  );
  assert.doesNotMatch(run.out + run.err, /s3cret-Passw0rd/);
});

test('ui --host 0.0.0.0 warns that the page is open to the network (not at --log-level error); the loopback default does not', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const open = await startupOutput(['--repo', repo.path, '--host', '0.0.0.0']);
  assert.match(
    open.err,
    /^\S+Z gitfleet ui: warning: --host 0\.0\.0\.0 is not a loopback address: the read-only dashboard .* is open to anyone who can reach this machine/m,
    open.err,
  );
  const loopback = await startupOutput(['--repo', repo.path, '--host', '127.0.0.2']);
  assert.match(loopback.out, /serving .* at http:\/\/127\.0\.0\.2:/);
  assert.doesNotMatch(loopback.err, /warning/);
  // --log-level error keeps the warning off stderr; the serving line is the command's output.
  const quiet = await startupOutput(['--repo', repo.path, '--host', '0.0.0.0', '--log-level', 'error']);
  assert.match(quiet.out, /serving .* at http:/);
  assert.equal(quiet.err, '');
});
