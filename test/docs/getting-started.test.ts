// docs/getting-started.md against the CLI and the repository, without clusters (the walkthrough
// itself runs in test/e2e/getting-started.test.ts): every gitfleet command it writes, in a block
// or in the troubleshooting table, parses with the command's own flags; every file and link it
// names exists; the lines the table says to look for are in the sources (their words between the
// values); the README leads to it; its blocks are steps the e2e test knows how to run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCommandLine, type CommandSpec } from '../../src/cli/command-line.js';
import { agentCommand } from '../../src/cli/commands/agent.js';
import { budgetCommand } from '../../src/cli/commands/budget.js';
import { diffCommand } from '../../src/cli/commands/diff.js';
import { hubCommand } from '../../src/cli/commands/hub.js';
import { logCommand } from '../../src/cli/commands/log.js';
import { renderCommand } from '../../src/cli/commands/render.js';
import { statusCommand } from '../../src/cli/commands/status.js';
import { uiCommand } from '../../src/cli/commands/ui.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';
import { commandsInProse, commandsInShell, type WrittenCommand } from '../support/command-words.js';
import { applySettings, missingLine, readDocSteps } from '../support/doc-steps.js';
import { clusterDoc } from '../support/fleet-docs.js';
import { runCli } from '../cli/run-cli.js';

const root = repoRoot();
const docPath = 'docs/getting-started.md';
const doc = readFileSync(join(root, docPath), 'utf8');
const steps = readDocSteps(doc);
const specs = new Map<string, CommandSpec>(
  [
    agentCommand,
    budgetCommand,
    diffCommand,
    hubCommand,
    logCommand,
    renderCommand,
    statusCommand,
    uiCommand,
    validateCommand,
  ].map((c) => [c.spec.name, c.spec as CommandSpec]),
);
/** What the settings block's variables stand for when a command line is parsed. */
const sampleVars = {
  EAST_CONTEXT: 'kind-east',
  WEST_CONTEXT: 'kind-west',
  UI_PORT: '8080',
  HOME: '/home/reader',
};

/** Parses the command with its command's spec; returns the usage error, or undefined. */
function parseError(command: WrittenCommand): string | undefined {
  const [name, ...args] = command.args;
  if (name === '--help' || (name !== undefined && args.length === 0 && name === 'help')) return undefined;
  const spec = name === undefined ? undefined : specs.get(name);
  if (!spec) return `no command '${name}'`;
  try {
    parseCommandLine(spec, args);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

test('every gitfleet command in a block parses with the flags the CLI has', () => {
  const commands = steps.flatMap((s) => commandsInShell(s.code, sampleVars));
  assert.ok(commands.length >= 15, `found ${commands.length} gitfleet commands in the blocks`);
  for (const name of ['validate', 'render', 'hub', 'agent', 'status', 'log', 'ui', 'diff', 'budget'])
    assert.ok(
      commands.some((c) => c.args[0] === name),
      `the walkthrough runs gitfleet ${name}`,
    );
  const bad = commands.map((c) => [c.text, parseError(c)]).filter(([, e]) => e !== undefined);
  assert.deepEqual(bad, [], 'command lines the CLI refuses');
});

test('every gitfleet command in the prose names a command and flags the CLI has', () => {
  const commands = commandsInProse(doc).filter((c) => /^[a-z-]+$/.test(c.args[0] ?? ''));
  assert.ok(commands.length >= 5, `found ${commands.length} gitfleet commands in the prose`);
  // A command quoted in a sentence may leave out what it requires; a wrong flag still shows.
  const incomplete = /is required$|^expected /;
  const bad = commands
    .map((c) => [c.text, parseError(c)])
    .filter(([, e]) => e !== undefined && !incomplete.test(e));
  assert.deepEqual(bad, [], 'command lines the CLI refuses');
});

test('the files and links it names exist', () => {
  const paths = [
    ...[...doc.matchAll(/\$GITFLEET_HOME\/([\w./-]+)/g)].map((m) => m[1]!),
    ...[...doc.matchAll(/`((?:deploy|docs|examples|test)\/[\w./-]*)`/g)].map((m) => m[1]!),
  ];
  assert.ok(paths.length >= 5, `found ${paths.length} paths`);
  assert.deepEqual(
    paths.filter((p) => !existsSync(join(root, p))),
    [],
    'paths that do not exist',
  );
  const links = [...doc.matchAll(/\]\(([^)#\s]+)(?:#([^)\s]+))?\)/g)].filter((m) => !/^https?:/.test(m[1]!));
  assert.ok(links.length >= 4, `found ${links.length} links`);
  for (const [, target, anchor] of links) {
    const file = join(root, dirname(docPath), target!);
    assert.ok(existsSync(file), `${target} exists`);
    if (anchor)
      assert.ok(headingAnchors(readFileSync(file, 'utf8')).includes(anchor), `${target}#${anchor} exists`);
  }
});

test('the README points a newcomer to the walkthrough near its top', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const at = readme.indexOf('](docs/getting-started.md)');
  assert.ok(at >= 0, 'README links docs/getting-started.md');
  assert.ok(at < readme.indexOf('\n## Usage'), 'before the Usage section');
});

test('its blocks are steps the end-to-end test runs: settings first, clean-up last', () => {
  const kinds = steps.map((s) => s.kind);
  assert.equal(kinds[0], 'settings');
  assert.equal(kinds.at(-1), 'cleanup');
  assert.ok(kinds.filter((k) => k === 'background').length >= 4, 'hub, two agents and the dashboard');
  const settings = steps[0]!.code;
  const set = applySettings(settings, {
    GITFLEET_HOME: '/g',
    KUBECONFIG: '/k',
    EAST_CONTEXT: 'member1',
    WEST_CONTEXT: 'member2',
    UI_PORT: '1234',
  });
  assert.match(set, /^export EAST_CONTEXT='member1'/m);
  assert.throws(() => applySettings(settings, { CLUSTER_ONE: 'x' }), /does not declare CLUSTER_ONE/);
});

test('a block marker the test does not know, or an output block with no command, is an error', () => {
  assert.throws(() => readDocSteps('```sh backgorund\ngitfleet hub\n```\n'), /line 1: unknown marker/);
  assert.throws(
    () => readDocSteps('text\n\n```text output\nhub: x\n```\n'),
    /line 3: an output block must follow/,
  );
  const [step] = readDocSteps(
    '  ```sh exit=6\n  gitfleet diff . a b\n  ```\n  ```text output\n  # verdict: …\n  ```\n',
  );
  assert.deepEqual(step, {
    kind: 'run',
    line: 1,
    code: 'gitfleet diff . a b',
    exit: 6,
    expect: ['# verdict: …'],
  });
});

test('expected output matches in order, with any run of spaces and … standing for anything', () => {
  const output =
    'CLUSTER  READY   RENDERED\neast     True    1a2b3c4\n2026-12-05T10:00:00Z hub: rendered refs/heads/main 1a2b3c4 (x)\n';
  assert.equal(missingLine(['east True …', 'hub: rendered refs/heads/main … (x)'], output), undefined);
  assert.equal(missingLine(['east False'], output), 'east False');
  assert.equal(missingLine(['hub: rendered …', 'east True'], output), 'east True', 'in order');
  assert.equal(missingLine(['(east)'], output), '(east)', 'parentheses are text');
});

/** Returns the anchors GitHub makes of a Markdown file's headings. */
function headingAnchors(markdown: string): string[] {
  return [...markdown.matchAll(/^#+ (.+)$/gm)].map((m) =>
    m[1]!
      .toLowerCase()
      .replace(/[^\w\- ]/g, '')
      .replace(/ /g, '-'),
  );
}

test('the lines its troubleshooting table says to look for are lines gitfleet writes', () => {
  const table = doc.slice(doc.indexOf('## 9. When nothing happens'), doc.indexOf('\nTry '));
  const cells = table
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| symptom'))
    .map((l) => l.split(' | ')[2] ?? '');
  assert.ok(cells.length >= 8, `found ${cells.length} rows`);
  const source = sourceText(join(root, 'src'));
  // What the tutorial names (a cluster, a namespace, a state, a count) stands where the code has a value.
  const placeholder = /…|<[^>]+>|\b(?:east|west|gitfleet-system|gitfleet-hub|Unknown|\d+)\b/g;
  const missing = cells
    .flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
    .filter((line) => !line.startsWith('git ')) // git's own output, not gitfleet's
    .flatMap((line) => line.split(placeholder).map((f) => f.replace(/^[\s:;,]+|[\s:;,]+$/g, '')))
    .filter((fragment) => fragment.split(/\s+/).length >= 2 && !source.includes(fragment));
  assert.deepEqual(missing, [], 'fragments no source file writes');
});

test('its YAML examples load as fleet files', async (t) => {
  const blocks = [...doc.matchAll(/^( *)```yaml\n([\s\S]*?)^ *```$/gm)].map((m) =>
    m[2]!.replace(new RegExp(`^${m[1]!}`, 'gm'), ''),
  );
  assert.ok(blocks.length >= 1, 'the walkthrough shows YAML of its own');
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-doc-yaml-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'cluster.yaml'), clusterDoc('east'));
  blocks.forEach((yaml, i) => writeFileSync(join(dir, `block-${i}.yaml`), yaml));
  const result = await runCli(['validate', dir]);
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
});

/** Returns the text of every .ts file under `dir`. */
function sourceText(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}
