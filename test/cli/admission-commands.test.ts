// A ValidatingAdmissionPolicy's denial as the user meets it (docs/admission-policies.md):
// `validate` exits 1 naming the policy, the binding, the cluster and the object; `diff` shows the
// new AdmissionDenied error in every format (the pull-request comment is the markdown one).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, commitAll, initRepo, writeFiles } from '../adapters/source/git-fixture.js';
import { baseFleet, policyYaml } from '../core/admission/admission-fleet.js';
import { runCli } from './run-cli.js';

after(cleanup);

const denial =
  'error: Deployment/shop/web @west: denied by ValidatingAdmissionPolicy/max-replicas (binding max-replicas-binding) on cluster west: replicas 5 is more than 3';

function admissionRepo(): { repo: string; base: string; head: string } {
  const repo = initRepo();
  const fleet = baseFleet();
  const strict = fleet.get('policies/max-replicas.yaml')!;
  fleet.set(
    'policies/max-replicas.yaml',
    policyYaml({ name: 'max-replicas', expression: 'object.spec.replicas <= 9' }),
  );
  writeFiles(repo, Object.fromEntries(fleet));
  const base = commitAll(repo, 'at most 9 replicas');
  writeFiles(repo, { 'policies/max-replicas.yaml': strict });
  const head = commitAll(repo, 'at most 3 replicas');
  return { repo, base, head };
}

test('validate passes the lenient policy, and exits 1 naming the policy, binding, cluster and object of a denial', async () => {
  const { repo, base, head } = admissionRepo();
  const good = await runCli(['validate', repo, '--ref', base]);
  assert.equal(good.code, 0, good.stdout + good.stderr);
  const bad = await runCli(['validate', repo, '--ref', head]);
  assert.equal(bad.code, 1);
  assert.ok(bad.stderr.includes(denial) || bad.stdout.includes(denial), bad.stdout + bad.stderr);
});

test('diff shows the denial as a new error in text, markdown (the PR comment) and JSON, on west only', async () => {
  const { repo, base, head } = admissionRepo();
  const text = await runCli(['diff', repo, base, head]);
  assert.ok(text.stdout.includes(`#   + ${denial}`), text.stdout);
  const markdown = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.ok(markdown.stdout.includes(`+ ${denial}`), markdown.stdout);
  const json = await runCli(['diff', repo, base, head, '--format', 'json']);
  const added = (
    JSON.parse(json.stdout) as {
      diagnostics: { added: { code: string; cluster: string; subject: string }[] };
    }
  ).diagnostics.added;
  assert.deepEqual(
    added.map((d) => [d.code, d.subject, d.cluster]),
    [['AdmissionDenied', 'Deployment/shop/web', 'west']],
  );
});

test('the example fleet: raising web to 26 replicas is denied on aws-eu-prod only, whose share becomes 13 (examples/fleet-repo/admission)', async () => {
  const example = new URL('../../../examples/fleet-repo/', import.meta.url).pathname;
  const repo = initRepo();
  cpSync(example, repo, { recursive: true, filter: (path) => !path.includes('/.git') });
  const base = commitAll(repo, 'the example fleet');
  const web = readFileSync(join(repo, 'apps/shop/web.yaml'), 'utf8');
  assert.match(web, /^ {2}replicas: 10$/m);
  writeFiles(repo, { 'apps/shop/web.yaml': web.replace(/^ {2}replicas: 10$/m, '  replicas: 26') });
  const head = commitAll(repo, 'web at 26 replicas');
  const json = await runCli(['diff', repo, base, head, '--format', 'json']);
  const added = (
    JSON.parse(json.stdout) as {
      diagnostics: { added: { code: string; cluster: string; subject: string; message: string }[] };
    }
  ).diagnostics.added;
  assert.deepEqual(
    added.map((d) => [d.code, d.subject, d.cluster]),
    [['AdmissionDenied', 'Deployment/shop/web', 'aws-eu-prod']],
    json.stdout,
  );
  assert.match(added[0]!.message, /shop runs at most 12 replicas of a Deployment per cluster; web has 13/);
  const markdown = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.match(markdown.stdout, /AdmissionDenied|denied by ValidatingAdmissionPolicy\/shop-max-replicas/);
});
