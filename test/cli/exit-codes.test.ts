// Every exit code of every command, produced by the real CLI (bin/gitfleet.js in a child
// process) on real repositories. The agent's codes are reached with a kubeconfig whose server
// does not answer: a missing or tombstoned branch is decided before anything is applied, and a
// cluster that does not answer fails the pass. Its success (0) needs a cluster: test/kube covers it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  exitCodeRows,
  exitCodes,
  formatExitCodes,
  type CommandName,
  type ExitCodeName,
} from '../../src/cli/exit-codes.js';
import { tempDir } from '../support/temp-dirs.js';
import { generateSshKey } from '../../src/adapters/signing/generate-ssh-key.js';
import {
  commitChange,
  exampleFleetRepo,
  git,
  gitEnv,
  removeFleetRepos,
  repoRoot,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';

const bin = join(repoRoot, 'bin/gitfleet.js');

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs bin/gitfleet.js with the arguments and returns its exit code and output. */
function gitfleet(args: readonly string[]): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

let dir: string;
/** The example fleet, rendered by the hub; then the onprem-gpu cluster deregistered (its branch tombstoned). */
let rendered: FleetRepo;
/** The example fleet, never rendered. */
let fresh: FleetRepo;
/** The example fleet with a file that does not load. */
let broken: FleetRepo;
/** The example fleet, rendered, then most of it deleted: the guard refuses (hub exit 3). */
let shrunk: FleetRepo;
let base: string;
let head: string;
let kubeconfig: string;
/** The hub's public keys for `cluster join --hub-keys`. */
let hubKeys: string;

before(async () => {
  dir = tempDir('gitfleet-exit-codes-');
  rendered = exampleFleetRepo({ bare: false });
  base = git(rendered, ['rev-parse', 'HEAD']);
  head = commitChange(rendered, 'scale web', (work) => {
    const path = join(work, 'apps/shop/web.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('replicas: 10', 'replicas: 12'));
  });
  assert.equal((await gitfleet(['hub', '--repo', rendered.path, '--once'])).code, 0);
  commitChange(rendered, 'deregister onprem-gpu', (work) => rmSync(join(work, 'clusters/onprem-gpu.yaml')));
  await gitfleet(['hub', '--repo', rendered.path, '--once']);
  fresh = exampleFleetRepo({ bare: false });
  commitChange(fresh, 'register edge-age with an age recipient', (work) =>
    writeFileSync(
      join(work, 'clusters/edge-age.yaml'),
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: edge-age\n  annotations:\n    gitfleet.io/age-recipient: age1lrk975y4xqudf9cgmcqalc65d0vj048zjqv77l92uhv5pkss0dhsm7dpc3\n',
    ),
  );
  broken = exampleFleetRepo({ bare: false });
  commitChange(broken, 'bad yaml', (work) =>
    writeFileSync(join(work, 'apps/bad.yaml'), 'kind: ConfigMap\n  bad: indent\n'),
  );
  shrunk = exampleFleetRepo({ bare: false });
  assert.equal((await gitfleet(['hub', '--repo', shrunk.path, '--once'])).code, 0);
  commitChange(shrunk, 'drop the shop', (work) => rmSync(join(work, 'apps/shop'), { recursive: true }));
  hubKeys = join(dir, 'hub.allowed_signers');
  writeFileSync(hubKeys, `gitfleet-hub ${generateSshKey('hub').publicLine}\n`);
  kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      "clusters: [{name: gone, cluster: {server: 'https://127.0.0.1:9'}}]",
      'contexts: [{name: gone, context: {cluster: gone, user: u}}]',
      'current-context: gone',
      'users: [{name: u, user: {token: t}}]',
      '',
    ].join('\n'),
  );
});

after(() => {
  removeFleetRepos();
  rmSync(dir, { recursive: true, force: true });
});

interface Row {
  command: CommandName;
  want: ExitCodeName;
  name: string;
  args: () => string[];
  /** What the output must say, so the code is reached the intended way. */
  says: RegExp;
}

let outs = 0;
/** Returns a render output directory no other row uses. */
const out = () => join(dir, `out-${outs++}`);

const rows: Row[] = [
  {
    command: 'render',
    want: 'ok',
    name: 'renders the example',
    args: () => ['render', fresh.work, '--out', out()],
    says: /wrote /,
  },
  {
    command: 'render',
    want: 'failed',
    name: 'a fleet that does not load',
    args: () => ['render', broken.work, '--out', out()],
    says: /apps\/bad\.yaml/,
  },
  {
    command: 'render',
    want: 'usage',
    name: 'no --out',
    args: () => ['render', fresh.work],
    says: /--out DIR is required/,
  },
  {
    command: 'validate',
    want: 'ok',
    name: 'a valid fleet',
    args: () => ['validate', fresh.work],
    says: /valid/,
  },
  {
    command: 'validate',
    want: 'failed',
    name: 'a fleet that does not load',
    args: () => ['validate', broken.work],
    says: /apps\/bad\.yaml/,
  },
  {
    command: 'validate',
    want: 'usage',
    name: 'an unknown flag',
    args: () => ['validate', fresh.work, '--bogus'],
    says: /unknown flag '--bogus'/,
  },
  {
    command: 'diff',
    want: 'ok',
    name: 'a ref against itself',
    args: () => ['diff', rendered.path, base, base],
    says: /^# verdict: no change on any cluster$/m,
  },
  {
    command: 'diff',
    want: 'changed',
    name: 'a change',
    args: () => ['diff', rendered.path, base, head],
    says: /replicas Deployment\/shop\/web: aws-eu-prod 5→6/,
  },
  {
    command: 'diff',
    want: 'usage',
    name: 'a missing ref',
    args: () => ['diff', rendered.path, base],
    says: /expected <repo> <base-ref> <head-ref>/,
  },
  {
    command: 'diff',
    want: 'sideDoesNotLoad',
    name: 'a ref that does not exist',
    args: () => ['diff', rendered.path, base, 'no-such-branch'],
    says: /head 'no-such-branch' does not load/,
  },
  {
    command: 'log',
    want: 'ok',
    name: 'the render history',
    args: () => ['log', '--repo', rendered.path],
    says: /\S/,
  },
  {
    command: 'log',
    want: 'failed',
    name: 'a repository without cluster branches',
    args: () => ['log', '--repo', fresh.path],
    says: /no cluster branch gitfleet\/clusters\/\*/,
  },
  {
    command: 'log',
    want: 'usage',
    name: 'no --repo',
    args: () => ['log'],
    says: /--repo <path> is required/,
  },
  {
    command: 'hub',
    want: 'ok',
    name: 'a pass with nothing to do',
    args: () => ['hub', '--repo', rendered.path, '--once'],
    says: /\S/,
  },
  {
    command: 'hub',
    want: 'failed',
    name: 'a source that does not load',
    args: () => ['hub', '--repo', broken.path, '--once'],
    says: /does not load; nothing was written/,
  },
  {
    command: 'hub',
    want: 'usage',
    name: 'a malformed --interval',
    args: () => ['hub', '--repo', fresh.path, '--interval', 'soon'],
    says: /--interval must be like 30s/,
  },
  {
    command: 'hub',
    want: 'writtenWithErrors',
    name: 'a refused mass deletion',
    args: () => ['hub', '--repo', shrunk.path, '--once'],
    says: /Gitfleet-Allow-Deletions: aws-eu-prod/,
  },
  {
    command: 'status',
    want: 'ok',
    name: 'a rendered fleet',
    args: () => ['status', '--repo', rendered.path],
    says: /web/,
  },
  {
    command: 'status',
    want: 'failed',
    name: 'a repository the hub never rendered',
    args: () => ['status', '--repo', fresh.path],
    says: /no branch gitfleet\/bindings/,
  },
  {
    command: 'status',
    want: 'usage',
    name: 'a bad selector',
    args: () => ['status', '--repo', rendered.path, '-l', '=nope'],
    says: /\S/,
  },
  {
    command: 'ui',
    want: 'failed',
    name: 'a path that is no repository',
    args: () => ['ui', '--repo', join(dir, 'no-such-repo'), '--port', '0'],
    says: /no-such-repo/,
  },
  {
    command: 'ui',
    want: 'usage',
    name: 'no --repo',
    args: () => ['ui'],
    says: /--repo/,
  },
  {
    command: 'agent',
    want: 'failed',
    name: 'a cluster that does not answer',
    args: () => [
      'agent',
      '--repo',
      rendered.path,
      '--cluster',
      'aws-eu-prod',
      '--kubeconfig',
      kubeconfig,
      '--once',
    ],
    says: /the cluster does not answer/,
  },
  {
    command: 'agent',
    want: 'usage',
    name: 'no --cluster',
    args: () => ['agent', '--repo', rendered.path, '--once'],
    says: /--cluster NAME is required/,
  },
  {
    command: 'agent',
    want: 'noClusterBranch',
    name: 'a cluster the hub has not rendered',
    args: () => [
      'agent',
      '--repo',
      fresh.path,
      '--cluster',
      'aws-eu-prod',
      '--kubeconfig',
      kubeconfig,
      '--once',
    ],
    says: /no cluster branch yet; nothing applied \(.*Cluster registered .*: is one named aws-eu-prod, and is the hub running\?\)/,
  },
  {
    command: 'agent',
    want: 'tombstoned',
    name: 'a deregistered cluster',
    args: () => [
      'agent',
      '--repo',
      rendered.path,
      '--cluster',
      'onprem-gpu',
      '--kubeconfig',
      kubeconfig,
      '--once',
    ],
    says: /branch tombstoned/,
  },
  {
    command: 'cluster join',
    want: 'ok',
    name: 'a new cluster',
    args: () => [
      'cluster',
      'join',
      'edge-1',
      '--repo',
      fresh.path,
      '--hub-keys',
      hubKeys,
      '--author',
      'Pat <pat@example.com>',
      '-o',
      out(),
      '--agent-repo',
      'https://git.example.org/fleet.git',
    ],
    says: /registration committed on branch cluster-join\/edge-1/,
  },
  {
    command: 'cluster join',
    want: 'failed',
    name: 'a cluster registered already',
    args: () => ['cluster', 'join', 'aws-eu-prod', '--repo', fresh.path, '--hub-keys', hubKeys, '-o', out()],
    says: /cluster aws-eu-prod: registered already/,
  },
  {
    command: 'cluster join',
    want: 'usage',
    name: 'no --hub-keys',
    args: () => ['cluster', 'join', 'edge-2', '--repo', fresh.path],
    says: /--hub-keys FILE is required/,
  },
  {
    command: 'cluster leave',
    want: 'ok',
    name: 'a registered cluster',
    args: () => ['cluster', 'leave', 'onprem-gpu', '--repo', fresh.path, '--author', 'Pat <pat@example.com>'],
    says: /removal committed on branch cluster-leave\/onprem-gpu/,
  },
  {
    command: 'cluster leave',
    want: 'failed',
    name: 'a cluster not registered',
    args: () => ['cluster', 'leave', 'no-such', '--repo', fresh.path, '--author', 'Pat <pat@example.com>'],
    says: /cluster no-such: not registered/,
  },
  {
    command: 'cluster leave',
    want: 'usage',
    name: 'no cluster name',
    args: () => ['cluster', 'leave', '--repo', fresh.path],
    says: /expected NAME/,
  },
  {
    command: 'secrets recipients',
    want: 'ok',
    name: 'a cluster registered with an age recipient',
    args: () => ['secrets', 'recipients', 'edge-age', '--repo', fresh.path],
    says: /^age1lrk975y4xqudf9cgmcqalc65d0vj048zjqv77l92uhv5pkss0dhsm7dpc3$/m,
  },
  {
    command: 'secrets recipients',
    want: 'failed',
    name: 'a cluster without an age recipient',
    args: () => ['secrets', 'recipients', 'edge-age', 'aws-eu-prod', '--repo', fresh.path],
    says: /cluster aws-eu-prod: has no age recipient \(annotation gitfleet.io\/age-recipient/,
  },
  {
    command: 'secrets recipients',
    want: 'usage',
    name: 'no cluster',
    args: () => ['secrets', 'recipients', '--repo', fresh.path],
    says: /expected CLUSTER/,
  },
];

for (const row of rows) {
  test(`${row.command} exits ${exitCodes[row.want]} (${row.want}) on ${row.name}.`, async () => {
    const run = await gitfleet(row.args());
    assert.equal(run.code, exitCodes[row.want], `${row.args().join(' ')}:\n${run.stdout}${run.stderr}`);
    assert.match(run.stdout + run.stderr, row.says);
  });
}

test('Every exit code has one meaning across all commands, and each is tested here but the agent success and a crash (last-resort.test.ts).', () => {
  const all = exitCodeRows().map((r) => r.code);
  assert.equal(new Set(all).size, all.length, `codes: ${all.join(', ')}`);
  for (const command of [
    'render',
    'validate',
    'diff',
    'log',
    'hub',
    'agent',
    'status',
    'cluster join',
    'cluster leave',
    'secrets recipients',
  ] as const) {
    const codes = exitCodeRows(command).map((r) => r.code);
    assert.equal(new Set(codes).size, codes.length, `${command}: ${codes.join(', ')}`);
    const tested = new Set(rows.filter((r) => r.command === command).map((r) => r.want));
    const untested = exitCodeRows(command)
      .map((r) => r.name)
      .filter((name) => !tested.has(name));
    assert.deepEqual(untested, command === 'agent' ? ['ok', 'crashed'] : ['crashed'], command);
  }
});

test('--help prints the exit codes of the table and exits 0; with no command the usage exits 2.', async () => {
  const help = await gitfleet(['--help']);
  assert.equal(help.code, exitCodes.ok);
  for (const row of exitCodeRows()) assert.match(help.stdout, new RegExp(`^ {2}${row.code} {2}\\S`, 'm'));
  const agent = await gitfleet(['agent', '--help']);
  assert.equal(agent.code, exitCodes.ok);
  assert.match(agent.stdout, /^ {2}4 {2}agent --once: the cluster branch is tombstoned/m);
  assert.doesNotMatch(agent.stdout, /^ {2}3 {2}hub/m);
  assert.equal((await gitfleet([])).code, exitCodes.usage);
});

test('docs/errors.md shows the exit-code table as --help prints it.', () => {
  assert.ok(readFileSync(join(repoRoot, 'docs/errors.md'), 'utf8').includes(`\n${formatExitCodes()}\n`));
});
