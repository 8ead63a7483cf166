// `gitfleet validate` tells a reviewer who may change each Tenant file (docs/tenants.md#protecting-the-tenant-files):
// the CODEOWNERS rule the forge applies to it, read from the commit validated or the files on disk.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { commitChange, exampleFleetRepo, removeFleetRepos } from '../loops/hub/hub-fixture.js';

after(removeFleetRepos);

const codeowners = '* @example/everyone\n/platform/ @example/platform-team\n';

interface TenantFile {
  file: string;
  tenants: string[];
  severity: string;
  codeowners?: { file: string; line: number; owners: string[] };
}

test('validate names the code owners of the Tenant file, from the commit it validates', async () => {
  const repo = exampleFleetRepo({ bare: false });
  commitChange(repo, 'code owners', (work) => {
    mkdirSync(join(work, '.github'), { recursive: true });
    writeFileSync(join(work, '.github/CODEOWNERS'), codeowners);
  });
  const json = await runCli(['validate', repo.work, '--ref', 'main', '--output', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const files = (JSON.parse(json.stdout) as { tenantFiles: TenantFile[] }).tenantFiles;
  assert.deepEqual(
    files.map((f) => [f.file, f.tenants, f.severity, f.codeowners?.owners, f.codeowners?.line]),
    [['platform/tenants.yaml', ['shop', 'ml'], 'info', ['@example/platform-team'], 2]],
  );
  const text = await runCli(['validate', repo.work, '--ref', 'main']);
  assert.equal(text.code, 0);
  assert.match(
    text.stderr,
    /^info: platform\/tenants\.yaml \(Tenants shop, ml\): a change needs the approval of @example\/platform-team \(\.github\/CODEOWNERS line 2: \/platform\/\)/m,
  );
});

test('validate warns when no CODEOWNERS rule protects a Tenant file, and stays valid', async () => {
  const repo = exampleFleetRepo({ bare: false });
  // On disk: a CODEOWNERS at the root owning the apps only.
  writeFileSync(join(repo.work, 'CODEOWNERS'), '/apps/ @example/app-owners\n');
  const text = await runCli(['validate', repo.work]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stderr,
    /^warning: platform\/tenants\.yaml \(Tenants shop, ml\): no CODEOWNERS rule covers it \(CODEOWNERS\): anyone who may push to the source branch may change it/m,
  );
});
