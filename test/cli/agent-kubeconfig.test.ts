// A kubeconfig that is missing, not YAML, not a kubeconfig, or without the context asked for is a
// usage-level error that says it is the kubeconfig, names the file and what is wrong with it
// (issue #27.17), never a bare ENOENT or a YAML parser's message. Real processes, real repository.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { tempDir } from '../support/temp-dirs.js';
import {
  exampleFleetRepo,
  gitEnv,
  removeFleetRepos,
  repoRoot,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';

const bin = join(repoRoot, 'bin/gitfleet.js');

/** Runs bin/gitfleet.js with the arguments (and extra environment); returns code and output. */
function gitfleet(args: readonly string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    const options = { env: { ...gitEnv, ...env }, timeout: 60_000 };
    execFile(process.execPath, [bin, ...args], options, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, out: stdout + stderr });
    });
  });
}

const validConfig = [
  'apiVersion: v1',
  'kind: Config',
  "clusters: [{name: a, cluster: {server: 'https://127.0.0.1:9'}}]",
  'contexts: [{name: a, context: {cluster: a, user: u}}, {name: b, context: {cluster: a, user: u}}]',
  'current-context: a',
  'users: [{name: u, user: {token: t}}]',
  '',
].join('\n');

let dir: string;
let repo: FleetRepo;
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

before(() => {
  dir = tempDir('gitfleet-kubeconfig-');
  repo = exampleFleetRepo({ bare: false });
});

after(() => {
  removeFleetRepos();
  rmSync(dir, { recursive: true, force: true });
});

interface Row {
  name: string;
  /** The kubeconfig flag's value (undefined: none) and any environment. */
  given: () => { kubeconfig?: string; context?: string; env?: Record<string, string> };
  says: (given: { kubeconfig?: string }) => RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const rows: Row[] = [
  {
    name: 'a --kubeconfig that does not exist is "not found", naming the file',
    given: () => ({ kubeconfig: join(dir, 'missing.yaml') }),
    says: (g) => new RegExp(`^gitfleet agent: kubeconfig ${escape(g.kubeconfig ?? '')}: not found\\n`, 'm'),
  },
  {
    name: 'a --kubeconfig that is not YAML names the file and the line',
    given: () => ({
      kubeconfig: file('garbage.yaml', 'apiVersion: v1\nkind: Config\nclusters: [\n  : : :\n'),
    }),
    says: (g) => new RegExp(`kubeconfig ${escape(g.kubeconfig ?? '')}: not valid YAML at line \\d+`),
  },
  {
    name: 'a --kubeconfig that is YAML but not a mapping says it is not a kubeconfig',
    given: () => ({ kubeconfig: file('list.yaml', '- a\n- b\n') }),
    says: (g) => new RegExp(`kubeconfig ${escape(g.kubeconfig ?? '')}: not a kubeconfig`),
  },
  {
    name: 'a --context the kubeconfig does not have lists the contexts it has',
    given: () => ({ kubeconfig: file('valid.yaml', validConfig), context: 'c' }),
    says: (g) => new RegExp(`kubeconfig ${escape(g.kubeconfig ?? '')}: no context c \\(contexts: a, b\\)`),
  },
  {
    name: 'a $KUBECONFIG naming a missing file is "not found", naming the file',
    given: () => ({ env: { KUBECONFIG: join(dir, 'gone.yaml') } }),
    says: () => new RegExp(`kubeconfig ${escape(join(dir, 'gone.yaml'))}: not found`),
  },
  {
    name: 'a $KUBECONFIG naming a garbage file names the file and the line',
    given: () => ({ env: { KUBECONFIG: file('env-garbage.yaml', 'a: b\n c: [\n') } }),
    says: () =>
      new RegExp(`kubeconfig ${escape(join(dir, 'env-garbage.yaml'))}: not valid YAML at line \\d+`),
  },
];

for (const row of rows) {
  test(`agent: ${row.name}.`, async () => {
    const given = row.given();
    const args = ['agent', '--repo', repo.path, '--cluster', 'aws-eu-prod', '--once'];
    if (given.kubeconfig !== undefined) args.push('--kubeconfig', given.kubeconfig);
    if (given.context !== undefined) args.push('--context', given.context);
    const run = await gitfleet(args, given.env);
    assert.notEqual(run.code, 0, run.out);
    assert.match(run.out, row.says(given));
    assert.doesNotMatch(run.out, /ENOENT|YAMLException|at .*\.js:\d+/, run.out);
  });
}
