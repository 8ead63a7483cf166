// Text from the fleet (file names, YAML keys, commit subjects, patterns) carrying ESC, CR, BEL,
// U+202E, NUL or LF must never reach stdout or stderr raw (issue #27.17): each is printed as an
// escape, and an LF in a name never starts a line of its own. Text output of validate, render,
// hub, log and diff, with the real CLI on real files and a real repository.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  commitChange,
  exampleFleetRepo,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { runCli } from './run-cli.js';

// What a terminal must never receive raw: C0 controls but LF and TAB, DEL, C1, line and paragraph
// separators, bidi controls, the BOM.
// eslint-disable-next-line no-control-regex
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;

const chars: Record<string, string> = {
  ESC: '\u001b[31m',
  CR: '\r',
  BEL: '\u0007',
  RLO: '\u202e',
  NUL: '\u0000',
};

const root = mkdtempSync(join(tmpdir(), 'gitfleet-raw-'));
let repo: FleetRepo;
let base: string;
let head: string;
const subject = `scale web ${Object.values(chars)
  .filter((c) => c !== '\u0000')
  .join(' ')} end`;

before(() => {
  repo = exampleFleetRepo({ bare: false });
  base = commitChange(repo, 'base', () => undefined);
  head = commitChange(repo, subject, (work) =>
    writeFileSync(
      join(work, 'apps', 'extra.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra, namespace: shop}\n',
    ),
  );
});

after(() => {
  removeFleetRepos();
  rmSync(root, { recursive: true, force: true });
});

let dirs = 0;
/** A fleet directory holding one Cluster and the given files. */
function fleetDir(files: Record<string, string>): string {
  const dir = join(root, `fleet-${dirs++}`);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'cluster.yaml'),
    'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n',
  );
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const policy = (key: string) =>
  `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\n` +
  `spec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n  placement: {}\n  ${JSON.stringify(key)}: 1\n`;

interface Row {
  name: string;
  args: () => string[];
  /** Text that must not begin a line (an LF in a name must not forge one). */
  forged?: string;
}

const rows: Row[] = [];
for (const [label, c] of Object.entries(chars)) {
  if (label !== 'NUL') {
    rows.push({
      name: `validate: a file name with ${label} in a load error`,
      args: () => ['validate', fleetDir({ [`bad${c}name.yaml`]: 'kind: ConfigMap\n  bad: indent\n' })],
    });
    rows.push({
      name: `render: a file name with ${label} in a load error`,
      args: () => [
        'render',
        fleetDir({ [`bad${c}name.yaml`]: 'kind: ConfigMap\n  bad: indent\n' }),
        '--out',
        join(root, `out-${dirs}`),
      ],
    });
  }
  rows.push({
    name: `validate: a YAML key with ${label} in an unknown-field error`,
    args: () => ['validate', fleetDir({ 'policy.yaml': policy(`odd${c}field`) })],
  });
  rows.push({
    name: `validate: a FleetConfig pattern with ${label}`,
    args: () => [
      'validate',
      fleetDir({
        'config.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: {name: f}\nspec: {skippedNamespaces: [${JSON.stringify(`(${c}`)}]}\n`,
      }),
    ],
  });
}
rows.push(
  {
    name: 'validate: a file name with LF in a load error',
    args: () => ['validate', fleetDir({ 'bad\nFORGED: line.yaml': 'kind: ConfigMap\n  bad: indent\n' })],
    forged: 'FORGED',
  },
  {
    name: 'validate: a YAML key with LF in an unknown-field error',
    args: () => ['validate', fleetDir({ 'policy.yaml': policy('odd\nFORGED: field') })],
    forged: 'FORGED',
  },
  {
    name: 'hub --once: a source commit subject with ESC, CR, BEL and RLO',
    args: () => ['hub', '--repo', repo.path, '--once'],
  },
  { name: 'log: render commit subjects with ESC, CR, BEL and RLO', args: () => ['log', '--repo', repo.path] },
  { name: 'diff: a commit subject with ESC, CR, BEL and RLO', args: () => ['diff', repo.path, base, head] },
);

for (const row of rows) {
  test(`${row.name} is printed escaped.`, async () => {
    const run = await runCli(row.args());
    const output = run.stdout + '\n' + run.stderr;
    const found = raw.exec(output);
    assert.equal(
      found,
      null,
      `raw U+${found?.[0].codePointAt(0)?.toString(16).padStart(4, '0')} in:\n${JSON.stringify(output)}`,
    );
    if (row.forged) assert.doesNotMatch(output, new RegExp(`^${row.forged}`, 'm'), JSON.stringify(output));
  });
}
