// The example workflows are copied into fleet repos as they are, so what makes them safe to
// copy is checked here on the files themselves.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as jsyaml from 'js-yaml';

const dir = join(new URL('.', import.meta.url).pathname, '../../../examples/github-actions');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflows = readdirSync(dir)
  .filter((f) => f.endsWith('.yml'))
  .sort()
  .map((file) => ({ file, wf: jsyaml.load(readFileSync(join(dir, file), 'utf8')) as Workflow }));

const steps = (wf: Workflow) => Object.values(wf.jobs).flatMap((job) => job.steps);
const writes = (p: Workflow['permissions']) =>
  typeof p === 'string' ? p.includes('write') : Object.values(p ?? {}).includes('write');

test('There are two workflows: one that computes the diff and one that posts it.', () => {
  assert.deepEqual(
    workflows.map((w) => w.file),
    ['gitfleet-diff-comment.yml', 'gitfleet-diff.yml'],
  );
});

for (const { file, wf } of workflows) {
  test(`${file}: every action is pinned to a full commit SHA.`, () => {
    for (const step of steps(wf).filter((s) => s.uses !== undefined)) {
      assert.match(step.uses!, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/, `${step.uses} is not pinned to a commit`);
    }
  });

  test(`${file}: nothing is fetched from a package registry by name (no npx, npm exec, npm install <name>).`, () => {
    for (const step of steps(wf).filter((s) => s.run !== undefined)) {
      assert.doesNotMatch(step.run!, /\bnpx\b|\bnpm\s+(exec|x|install|i|add)\b|\byarn\s+dlx\b|\bpnpm\s+dlx\b/);
    }
  });

  test(`${file}: every checkout leaves no credentials behind.`, () => {
    for (const step of steps(wf).filter((s) => s.uses?.startsWith('actions/checkout@'))) {
      assert.equal(step.with?.['persist-credentials'], false, 'persist-credentials: false');
    }
  });

  test(`${file}: never runs on pull_request_target.`, () => {
    assert.equal('pull_request_target' in wf.on, false);
  });

  test(`${file}: a job that can write checks out nothing and runs no gitfleet.`, () => {
    for (const [name, job] of Object.entries(wf.jobs)) {
      if (!writes(wf.permissions) && !writes(job.permissions)) continue;
      assert.ok(!job.steps.some((s) => s.uses?.startsWith('actions/checkout@')), `${name} checks out code`);
      assert.ok(!job.steps.some((s) => s.run?.includes('gitfleet')), `${name} runs gitfleet`);
    }
  });
}

test('The diff workflow runs on pull requests with a read-only token, and gitfleet from a pinned commit outside the checkout.', () => {
  const wf = workflows.find((w) => w.file === 'gitfleet-diff.yml')!.wf;
  assert.ok('pull_request' in wf.on);
  assert.ok(!writes(wf.permissions) && Object.values(wf.jobs).every((j) => !writes(j.permissions)));
  assert.match(wf.env?.['GITFLEET_COMMIT'] ?? '', /^[0-9a-f]{40}$/);
  const run = steps(wf)
    .map((s) => s.run ?? '')
    .join('\n');
  assert.match(run, /\$RUNNER_TEMP\/gitfleet/, 'gitfleet is built under $RUNNER_TEMP');
  assert.match(run, /npm ci --ignore-scripts/, 'its dependencies come from its own lockfile, install scripts off');
  assert.match(run, /rev-parse HEAD\)" != "\$GITFLEET_COMMIT"/, 'the checked-out commit is verified');
});

test('The comment workflow runs after the diff workflow and takes the pull request from GitHub, not from the artifact.', () => {
  const wf = workflows.find((w) => w.file === 'gitfleet-diff-comment.yml')!.wf;
  assert.deepEqual(Object.keys(wf.on), ['workflow_run']);
  const script = steps(wf)
    .map((s) => String(s.with?.['script'] ?? ''))
    .join('\n');
  assert.match(script, /head_sha/);
});
