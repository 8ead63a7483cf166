// Who may change a Tenant file, as `validate` reports it (docs/tenants.md#protecting-the-tenant-files):
// the CODEOWNERS rule that decides it (GitHub's rules: the last match wins) and the signers the
// fleet's source verification trusts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownersRuleOf, parseCodeowners } from '../../../src/core/tenancy/codeowners.js';
import { tenantFileEditors } from '../../../src/core/tenancy/tenant-file-editors.js';
import type { Tenant } from '../../../src/core/model/tenant.js';

const codeowners = `# The platform team owns the guardrails.
*                     @example/everyone
/platform/            @example/platform-team   # Tenants and quotas
apps/                 @example/app-owners
docs/*                @example/writers
/platform/sandbox.yaml
[Security][2] @example/security
/keys/
`;

const cases: { name: string; path: string; want: { line: number; owners: string[] } | undefined }[] = [
  {
    name: 'a rooted folder owns the files below it',
    path: 'platform/tenants.yaml',
    want: { line: 3, owners: ['@example/platform-team'] },
  },
  {
    name: 'a later line wins over an earlier one',
    path: 'platform/sandbox.yaml',
    want: { line: 6, owners: [] },
  },
  {
    name: 'a folder pattern without a leading slash matches at any depth',
    path: 'teams/apps/shop/web.yaml',
    want: { line: 4, owners: ['@example/app-owners'] },
  },
  {
    name: '`docs/*` takes the files of docs',
    path: 'docs/tenants.md',
    want: { line: 5, owners: ['@example/writers'] },
  },
  {
    name: '`docs/*` does not take the files of its subfolders',
    path: 'docs/team/notes.md',
    want: { line: 2, owners: ['@example/everyone'] },
  },
  {
    name: "a GitLab section's owners are the default of its lines",
    path: 'keys/allowed_signers',
    want: { line: 8, owners: ['@example/security'] },
  },
  {
    name: 'the catch-all owns the rest',
    path: 'fleet.yaml',
    want: { line: 2, owners: ['@example/everyone'] },
  },
];

for (const c of cases)
  test(`CODEOWNERS: ${c.name}`, () => {
    const rule = ownersRuleOf(parseCodeowners(codeowners), c.path);
    assert.deepEqual(rule && { line: rule.line, owners: rule.owners }, c.want);
  });

test('CODEOWNERS: a path no pattern matches has no rule', () => {
  assert.equal(ownersRuleOf(parseCodeowners('/platform/ @a\n'), 'apps/shop/web.yaml'), undefined);
});

function aTenant(name: string, file: string): Tenant {
  return {
    name,
    paths: [`apps/${name}/**`],
    namespaces: [name],
    clusters: { names: [] },
    deniedKinds: [],
    clusterScoped: false,
    source: { file, index: 0 },
  };
}

test('each Tenant file is reported once with its tenants, its code owners and the signers of strict verification', () => {
  const editors = tenantFileEditors({
    tenants: [aTenant('shop', 'platform/tenants.yaml'), aTenant('ml', 'platform/tenants.yaml')],
    codeowners: { file: '.github/CODEOWNERS', text: codeowners },
    verification: { mode: 'strict', allowedSigners: 'keys/allowed_signers' },
    allowedSigners:
      '# platform\nalice@example.com,ops@example.com namespaces="git" ssh-ed25519 AAAA\nbob@example.com ssh-ed25519 BBBB\n',
  });
  assert.equal(editors.length, 1);
  const [e] = editors;
  assert.deepEqual(e!.tenants, ['shop', 'ml']);
  assert.equal(e!.severity, 'info');
  assert.deepEqual(e!.codeowners, {
    file: '.github/CODEOWNERS',
    line: 3,
    pattern: '/platform/',
    owners: ['@example/platform-team'],
  });
  assert.deepEqual(e!.signers, {
    mode: 'strict',
    principals: ['alice@example.com', 'bob@example.com', 'ops@example.com'],
    openpgpKeys: 0,
  });
  assert.match(
    e!.message,
    /^platform\/tenants\.yaml \(Tenants shop, ml\): a change needs the approval of @example\/platform-team/,
  );
  assert.match(
    e!.message,
    /every commit that changes it must be signed by alice@example\.com, bob@example\.com, ops@example\.com/,
  );
});

test('a Tenant file without owners is a warning naming why: no CODEOWNERS file, or a rule leaving it ownerless', () => {
  const [none] = tenantFileEditors({ tenants: [aTenant('shop', 'platform/tenants.yaml')] });
  assert.equal(none!.severity, 'warning');
  assert.match(
    none!.message,
    /no CODEOWNERS rule covers it \(the repository has no CODEOWNERS file\): anyone who may push/,
  );
  const [ownerless] = tenantFileEditors({
    tenants: [aTenant('sandbox', 'platform/sandbox.yaml')],
    codeowners: { file: 'CODEOWNERS', text: codeowners },
  });
  assert.equal(ownerless!.severity, 'warning');
  assert.match(
    ownerless!.message,
    /CODEOWNERS line 6 \(\/platform\/sandbox\.yaml\) leaves it without owners/,
  );
});
