// docs/getting-started.md, done as a reader does it: every sh block, in order, as written, in a
// bash of its own that carries the exports and the working directory of the blocks before (a
// reader's terminal), with the settings block's placeholders set to the test clusters; the
// "another terminal" blocks (hub, agents, dashboard) as long-running processes stopped with
// Ctrl-C before the clean-up block; every "you should see" block waited for in the output. A
// renamed flag, a moved file or an output that changed fails here, naming the doc's line.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';
import { freePorts } from '../clusters/harness/free-ports.js';
import { docShell, type BackgroundBlock, type DocShell } from '../support/doc-shell.js';
import { missingLine, readDocSteps, applySettings, type DocStep } from '../support/doc-steps.js';
import { tempDir, removeTempDirs } from '../support/temp-dirs.js';
import { testClusterNames } from '../kube/test-clusters.js';
import { removeTutorialLeftovers } from './getting-started-leftovers.js';
import { checkDashboardPage } from './getting-started-dashboard.js';

const root = repoRoot();
const docPath = 'docs/getting-started.md';
const steps = readDocSteps(readFileSync(join(root, docPath), 'utf8'));
const waitMs = 180_000; // a watchdog for what the doc says will come, not a timing assertion
const blockMs = 120_000;
/** GITFLEET_DOC_TRACE=1 prints what every block printed, to write the doc's "you should see" blocks from. */
const trace = process.env['GITFLEET_DOC_TRACE'] === '1';
const backgrounds: { step: DocStep; block: BackgroundBlock }[] = [];
const contexts = () => testClusterNames().slice(0, 2);
let shell: DocShell;
let cleanedUp = false;
const skip = process.env['GITFLEET_TEST_KWOK'] === 'false'; // kwok makes the Deployments Available

/** The reader's environment: a home of its own, the harness's kubectl, a git identity, nothing of the test's. */
function readerEnv(home: string): NodeJS.ProcessEnv {
  const bin = process.env['GITFLEET_K8S_BIN'];
  const path = [...(bin ? [bin] : []), dirname(process.execPath), process.env['PATH'] ?? ''].join(':');
  return {
    HOME: home,
    PATH: path,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    ...(process.env['TMPDIR'] ? { TMPDIR: process.env['TMPDIR'] } : {}),
    GIT_AUTHOR_NAME: 'A Reader',
    GIT_AUTHOR_EMAIL: 'reader@example.com',
    GIT_COMMITTER_NAME: 'A Reader',
    GIT_COMMITTER_EMAIL: 'reader@example.com',
  };
}

/** Everything the long-running blocks printed, for a failure message. */
function backgroundOutput(): string {
  return backgrounds
    .map(
      ({ step, block }) =>
        `--- ${docPath}:${step.line} (${block.running() ? 'running' : 'exited'})\n${block.output()}`,
    )
    .join('\n');
}

function fail(step: DocStep, why: string, output: string): never {
  throw new Error(
    `${docPath}:${step.line}: ${why}\n--- the block\n${step.code}\n--- what it printed\n${output}\n${backgroundOutput()}`,
  );
}

async function runStep(step: Extract<DocStep, { kind: 'run' }>): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { code, output } = await shell.run(step.code, blockMs);
    if (trace) console.log(`# ${docPath}:${step.line} exited ${code}\n${output}`);
    const missing = step.expect ? missingLine(step.expect, output) : undefined;
    if (code === step.exit && missing === undefined) return;
    // Only a block the doc shows the output of is waited for (it reads what a process will write).
    if (!step.expect || Date.now() > deadline) {
      fail(
        step,
        code === step.exit ? `never printed: ${missing}` : `exited ${code}, not ${step.exit}`,
        output,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function startBackground(step: Extract<DocStep, { kind: 'background' }>): Promise<BackgroundBlock> {
  const block = shell.background(step.code);
  backgrounds.push({ step, block });
  const deadline = Date.now() + waitMs;
  while (step.expect && missingLine(step.expect, block.output()) !== undefined) {
    if (!block.running()) fail(step, 'exited before printing what the doc shows', block.output());
    if (Date.now() > deadline)
      fail(step, `never printed: ${missingLine(step.expect, block.output())}`, block.output());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return block;
}

/** Ctrl-C in every other terminal, the last one opened first; each must stop by itself. */
async function stopBackgrounds(): Promise<string[]> {
  if (trace) console.log(backgroundOutput());
  const late: string[] = [];
  for (const { step, block } of backgrounds.reverse()) {
    if ((await block.stop(30_000)).killed) late.push(`${docPath}:${step.line} did not stop on Ctrl-C`);
  }
  backgrounds.length = 0;
  return late;
}

before(async () => {
  if (skip) return;
  const home = tempDir('getting-started-home');
  const state = join(home, '.doc-shell');
  mkdirSync(state);
  shell = docShell({ cwd: home, env: readerEnv(home), stateDir: state });
  await removeTutorialLeftovers(contexts());
});

after(async () => {
  if (skip) return;
  await stopBackgrounds();
  const cleanup = steps.find((s) => s.kind === 'cleanup');
  if (!cleanedUp && cleanup) await shell.run(cleanup.code, blockMs).catch(() => undefined);
  await removeTutorialLeftovers(contexts(), { wait: false }).catch(() => undefined);
  removeTempDirs();
});

test(
  'docs/getting-started.md runs as written on two clusters',
  { timeout: 900_000, skip: skip && 'the test clusters run without kwok: no Deployment becomes Available' },
  async () => {
    const [east, west] = contexts();
    assert.ok(east && west, 'the walkthrough needs two test clusters');
    const [uiPort] = await freePorts(1);
    const settings = {
      GITFLEET_HOME: root,
      KUBECONFIG: process.env['GITFLEET_TEST_KUBECONFIG'] ?? '',
      EAST_CONTEXT: east,
      WEST_CONTEXT: west,
      UI_PORT: String(uiPort),
    };
    assert.deepEqual(
      steps.map((s) => s.kind).filter((k, i, all) => all.indexOf(k) === i),
      ['settings', 'run', 'background', 'cleanup'],
      'the walkthrough starts with its settings and ends with its clean-up',
    );
    for (const step of steps) {
      if (step.kind === 'settings') {
        const { code, output } = await shell.run(applySettings(step.code, settings), blockMs);
        if (code !== 0) fail(step, `exited ${code}`, output);
      } else if (step.kind === 'run') {
        await runStep(step);
      } else if (step.kind === 'background') {
        const block = await startBackground(step);
        if (/\bgitfleet ui\b/.test(step.code)) {
          // The first page: the templates, Healthy; the Clusters page: east and west.
          await checkDashboardPage(block.output(), ['Deployment/shop/web', 'Healthy', 'Synced']);
          await checkDashboardPage(block.output(), ['east', 'west', 'Ready'], '#/clusters');
        }
      } else {
        assert.deepEqual(await stopBackgrounds(), [], 'every process stops on Ctrl-C');
        cleanedUp = true;
        const { code, output } = await shell.run(step.code, blockMs);
        if (code !== 0) fail(step, `exited ${code}`, output);
      }
    }
  },
);
