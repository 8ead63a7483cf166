// The doorbell's flags on the command line: each pair goes together, the agent's needs a URL
// repository and an http(s) doorbell, and a tokens file that does not parse stops the hub with
// its name (exit 2), never with a token in the message.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { runCli } from './run-cli.js';

after(removeTempDirs);

for (const { name, args, want } of [
  {
    name: 'an agent doorbell URL without its token file',
    args: [
      'agent',
      '--repo',
      'http://127.0.0.1:1/fleet.git',
      '--cluster',
      'm1',
      '--notify-url',
      'http://127.0.0.1:2',
    ],
    want: /--notify-url and --notify-token-file go together/,
  },
  {
    name: 'an agent doorbell on a local repository',
    args: [
      'agent',
      '--repo',
      '/tmp/fleet',
      '--cluster',
      'm1',
      '--notify-url',
      'http://127.0.0.1:2',
      '--notify-token-file',
      '/tmp/t',
    ],
    want: /--notify-url needs --repo to be a URL/,
  },
  {
    name: 'an agent doorbell that is not http(s)',
    args: [
      'agent',
      '--repo',
      'http://127.0.0.1:1/fleet.git',
      '--cluster',
      'm1',
      '--notify-url',
      'ftp://hub',
      '--notify-token-file',
      '/tmp/t',
    ],
    want: /--notify-url ftp:\/\/hub: must be an http\(s\) URL/,
  },
  {
    name: 'a hub doorbell address without its tokens',
    args: ['hub', '--repo', '/tmp/fleet', '--notify-addr', '127.0.0.1:0'],
    want: /--notify-addr and --notify-tokens go together/,
  },
]) {
  test(`${name} is a usage error (exit 2)`, async () => {
    const run = await runCli(args);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, want);
  });
}

test('a hub whose tokens file does not parse stops naming the file, not the tokens', async () => {
  const dir = tempDir('doorbell-flags');
  const tokens = join(dir, 'tokens.yaml');
  writeFileSync(tokens, '- m1: a-secret-token\n');
  const repo = join(dir, 'fleet.git');
  execFileSync('git', ['init', '-q', '--bare', repo]);
  const run = await runCli([
    'hub',
    '--repo',
    repo,
    '--notify-addr',
    '127.0.0.1:0',
    '--notify-tokens',
    tokens,
  ]);
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /tokens\.yaml/);
  assert.doesNotMatch(run.stderr, /a-secret-token/);
});
