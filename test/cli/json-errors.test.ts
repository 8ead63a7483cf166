// With --output json (diff: --format json), every error is one JSON object on stdout,
// {"error":{"code","message","subject"?,"errors"?}}, and nothing is printed as plain text.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { aFleetDir } from '../faults/fleet-dir.js';
import { testGitEnv } from '../git-env.js';
import { runCli } from './run-cli.js';

const dir = aFleetDir();
after(() => dir.remove());
const missing = join(dir.root, 'no-such-dir');
const empty = join(dir.root, 'empty-repo');
execFileSync('git', ['init', '-q', '-b', 'main', empty], { env: testGitEnv });

interface JsonError {
  code: string;
  message: string;
  subject?: string;
  errors?: unknown[];
}

/** Runs the command and returns the error object it printed, checking that it printed nothing else. */
async function jsonErrorOf(args: string[], wantCode: number): Promise<JsonError> {
  const run = await runCli(args);
  assert.equal(run.code, wantCode, `exit code of ${args.join(' ')}: ${run.stdout}${run.stderr}`);
  assert.equal(run.stderr, '', `nothing on stderr for ${args.join(' ')}`);
  const parsed = JSON.parse(run.stdout) as { error?: JsonError };
  assert.ok(parsed.error, `an error object for ${args.join(' ')}: ${run.stdout}`);
  assert.equal(typeof parsed.error.code, 'string');
  assert.equal(typeof parsed.error.message, 'string');
  return parsed.error;
}

const rows: { name: string; args: string[]; exit: number; code: string | RegExp; message: RegExp }[] = [
  {
    name: 'render of a missing directory',
    args: ['render', missing, '--out', join(dir.root, 'o1'), '--output', 'json'],
    exit: 1,
    code: 'NotADirectory',
    message: /no-such-dir: not a directory/,
  },
  {
    name: 'render without --out (a usage error)',
    args: ['render', dir.fleet, '--output=json'],
    exit: 2,
    code: 'UsageError',
    message: /--out DIR is required/,
  },
  {
    name: 'render with an unknown option',
    args: ['render', dir.fleet, '--bogus', '--output', 'json'],
    exit: 2,
    code: 'UsageError',
    message: /bogus/,
  },
  {
    name: 'validate of a missing directory',
    args: ['validate', missing, '--output', 'json'],
    exit: 1,
    code: 'NotADirectory',
    message: /not a directory/,
  },
  {
    name: 'diff of a directory that is not a repository',
    args: ['diff', missing, 'a', 'b', '--format', 'json'],
    exit: 7,
    code: /.+/,
    message: /no-such-dir/,
  },
  {
    name: 'diff with a bad --format value',
    args: ['diff', missing, 'a', 'b', '--format', 'json', '--bogus'],
    exit: 2,
    code: 'UsageError',
    message: /bogus/,
  },
  {
    name: 'log of a repository without cluster branches',
    args: ['log', '--repo', empty, '--output', 'json'],
    exit: 1,
    code: 'NoClusterBranch',
    message: /no cluster branch gitfleet\/clusters\/\*/,
  },
  {
    name: 'status of a repository without a bindings branch',
    args: ['status', '--repo', empty, '--output', 'json'],
    exit: 1,
    code: 'NoBindingsBranch',
    message: /no branch gitfleet\/bindings/,
  },
  {
    name: 'status with -o json and a bad selector (a usage error)',
    args: ['status', '--repo', empty, '-o', 'json', '-l', '=nope'],
    exit: 2,
    code: 'UsageError',
    message: /selector/,
  },
  {
    name: 'hub with a missing --repo (a usage error)',
    args: ['hub', '--once', '--output', 'json'],
    exit: 2,
    code: 'UsageError',
    message: /--repo PATH\|URL is required/,
  },
  {
    name: 'agent with a missing --cluster (a usage error)',
    args: ['agent', '--repo', empty, '--once', '--output', 'json'],
    exit: 2,
    code: 'UsageError',
    message: /cluster/,
  },
];

for (const row of rows) {
  test(`With --output json, ${row.name} prints one JSON error object and no text.`, async () => {
    const error = await jsonErrorOf(row.args, row.exit);
    if (typeof row.code === 'string') assert.equal(error.code, row.code);
    else assert.match(error.code, row.code);
    assert.match(error.message, row.message);
  });
}

test('With --output json, a render that does not load lists every load error in the error object.', async () => {
  dir.write('broken.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [x}\n');
  const error = await jsonErrorOf(
    ['render', dir.fleet, '--out', join(dir.root, 'o2'), '--output', 'json'],
    1,
  );
  assert.equal(error.code, 'LoadFailed');
  assert.match(error.message, /does not load/);
  assert.deepEqual(
    (error.errors as { file: string; code: string }[]).map((e) => [e.file, e.code]),
    [['broken.yaml', 'YamlSyntax']],
  );
});

test('With --output json, an output directory error names its path as the subject.', async () => {
  dir.write('broken.yaml', '');
  const out = join(dir.root, 'o3');
  execFileSync('mkdir', ['-p', join(out, 'precious')]);
  const error = await jsonErrorOf(['render', dir.fleet, '--out', out, '--output', 'json'], 1);
  assert.equal(error.code, 'OutputDirNotOurs');
  assert.equal(error.subject, out);
});
