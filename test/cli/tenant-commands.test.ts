// A tenant's breach as the user meets it (docs/tenants.md): `validate` exits 1 naming the file,
// the tenant and the rule; `diff` shows the new TenantRefused error in every format.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, commitAll, initRepo, writeFiles } from '../adapters/source/git-fixture.js';
import { baseFleet, policyYaml } from '../core/tenancy/tenant-fleet.js';
import { runCli } from './run-cli.js';

after(cleanup);

const refusal =
  'error: ConfigMap/shop/a @lab: refused by Tenant/team-a (rule clusters): cluster lab is not one of its clusters (apps/a/config.yaml)';

function tenantRepo(): { repo: string; base: string; head: string } {
  const repo = initRepo();
  writeFiles(repo, Object.fromEntries(baseFleet()));
  const base = commitAll(repo, 'two tenants');
  writeFiles(repo, { 'apps/a/policy.yaml': policyYaml('a', 'shop', ['east', 'lab']) });
  const head = commitAll(repo, 'team-a on lab');
  return { repo, base, head };
}

test('validate passes the two tenants, and exits 1 naming the tenant, rule and file of a breach', async () => {
  const { repo, base, head } = tenantRepo();
  const good = await runCli(['validate', repo, '--ref', base]);
  assert.equal(good.code, 0, good.stderr);
  const bad = await runCli(['validate', repo, '--ref', head]);
  assert.equal(bad.code, 1);
  assert.ok(bad.stderr.includes(refusal) || bad.stdout.includes(refusal), bad.stdout + bad.stderr);
});

test('diff shows the refusal as a new error in text, markdown and JSON', async () => {
  const { repo, base, head } = tenantRepo();
  const text = await runCli(['diff', repo, base, head]);
  assert.ok(text.stdout.includes(`#   + ${refusal}`), text.stdout);
  const markdown = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.ok(markdown.stdout.includes(`+ ${refusal}`), markdown.stdout);
  const json = await runCli(['diff', repo, base, head, '--format', 'json']);
  const added = (JSON.parse(json.stdout) as { diagnostics: { added: { code: string; cluster: string }[] } })
    .diagnostics.added;
  assert.deepEqual(
    added.map((d) => [d.code, d.cluster]),
    [['TenantRefused', 'lab']],
  );
});
