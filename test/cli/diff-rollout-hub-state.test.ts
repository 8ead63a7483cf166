// gitfleet diff of a change under a two-step RolloutStrategy names every step with the clusters
// it reaches, whether the repository holds the hub's branches (what a pull-request check gets:
// the merge's pass holds the later step) or not (--no-hub-state), and the verdict says which
// clusters the merge reaches now and which later. The hub state is recorded by real hub passes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { commitChange, git, hubPass, removeFleetRepos, rendered } from '../loops/hub/hub-fixture.js';
import { canary, fleetWithStrategy, report, setImage, strategy } from '../loops/hub/rollout-fixture.js';
import { runCli } from './run-cli.js';

after(removeFleetRepos);

const stepsLine =
  'rollout shop/web: step 1 gcp-eu-prod first (soak 20s), then step 2 aws-eu-prod, aws-us-prod';
const reach = escaped('1 cluster touched now, 2 clusters later by a rollout (aws-eu-prod, aws-us-prod)');

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Preview {
  verdict: { clusters: number; laterClusters: string[]; text: string };
  state: { used: boolean };
  clusters: { cluster: string }[];
  rollout: {
    strategies: { strategy: string; steps: { step: number; clusters: string[]; later: string[] }[] }[];
    now: string[];
    later: string[];
  };
}

const repo = await fleetWithStrategy(strategy({ soak: 20 }));
const base = git(repo, ['rev-parse', 'main']).trim();
commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));

for (const mode of ['with the hub state', 'with --no-hub-state'] as const) {
  const flags = mode === 'with --no-hub-state' ? ['--no-hub-state'] : [];

  test(`${mode}, the text names every step and the verdict says who is reached now and who later`, async () => {
    const run = await runCli(['diff', repo.path, base, 'main', ...flags]);
    assert.equal(run.code, 6, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(lines[0]!, new RegExp(`^# verdict: ${reach}; objects `));
    assert.ok(lines.includes(`#   ${stepsLine}`), run.stdout);
  });

  test(`${mode}, the markdown comment and the JSON say the same`, async () => {
    const md = await runCli(['diff', repo.path, base, 'main', '--format', 'markdown', ...flags]);
    assert.match(md.stdout, new RegExp(`^\\*\\*Verdict: ${reach};`, 'm'));
    assert.ok(md.stdout.includes(`- ${stepsLine}`), md.stdout);
    const json = JSON.parse(
      (await runCli(['diff', repo.path, base, 'main', '--format', 'json', ...flags])).stdout,
    ) as Preview;
    assert.equal(json.state.used, mode === 'with the hub state');
    assert.deepEqual(json.verdict.laterClusters, ['aws-eu-prod', 'aws-us-prod']);
    assert.deepEqual(
      json.rollout.strategies[0]!.steps.map((s) => [s.step, s.clusters, s.later]),
      [
        [1, [canary], []],
        [2, ['aws-eu-prod', 'aws-us-prod'], ['aws-eu-prod', 'aws-us-prod']],
      ],
    );
    assert.deepEqual([json.rollout.now, json.rollout.later], [[canary], ['aws-eu-prod', 'aws-us-prod']]);
  });
}

test('with the hub state the diff itself is what the merge writes: only the canary changes now', async () => {
  const json = JSON.parse(
    (await runCli(['diff', repo.path, base, 'main', '--format', 'json'])).stdout,
  ) as Preview;
  assert.deepEqual(
    json.clusters.map((c) => c.cluster),
    [canary],
  );
  const plain = JSON.parse(
    (await runCli(['diff', repo.path, base, 'main', '--format', 'json', '--no-hub-state'])).stdout,
  ) as Preview;
  assert.equal(plain.clusters.length, 3, 'a first pass renders the whole change');
});

test('a rollout the hub recorded moves on: with the canary Healthy, the preview of the next change still names both steps', async () => {
  rendered(await hubPass(repo));
  await report(repo, canary, 'Healthy');
  const second = git(repo, ['rev-parse', 'main']).trim();
  commitChange(repo, 'web 1.9.1', (work) => setImage(work, '1.9.1'));
  const run = await runCli(['diff', repo.path, second, 'main']);
  assert.equal(run.code, 6, run.stderr);
  assert.ok(run.stdout.split('\n').includes(`#   ${stepsLine}`), run.stdout);
  assert.match(run.stdout.split('\n')[0]!, new RegExp(`^# verdict: ${reach};`));
});
