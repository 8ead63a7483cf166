// Who may change each Tenant file (docs/tenants.md#protecting-the-tenant-files), as `validate`
// reports it to a reviewer: the forge's code owners of the file (the CODEOWNERS rule that decides
// it) and, when the fleet verifies its source commits, the signers it trusts. A Tenant file no
// CODEOWNERS rule gives owners is a warning: anyone who may push to the source branch may change it.
import type { Tenant } from '../model/tenant.js';
import type { SourceVerification } from '../model/source-verification.js';
import { ownersRuleOf, parseCodeowners } from './codeowners.js';

/** Who may change one Tenant file. */
export interface TenantFileEditors {
  file: string;
  /** The Tenants the file holds, by name. */
  tenants: string[];
  /** The CODEOWNERS rule that decides the file's owners, when one matches. */
  codeowners?: { file: string; line: number; pattern: string; owners: string[] };
  /** The source verification that applies to every change of it, when the fleet has one. */
  signers?: { mode: SourceVerification['mode']; principals: string[]; openpgpKeys: number };
  severity: 'info' | 'warning';
  /** One sentence, the file first. */
  message: string;
}

/** Returns, per file holding Tenants (by path), who may change it. */
export function tenantFileEditors(opts: {
  tenants: readonly Tenant[];
  /** The CODEOWNERS file the forge reads (codeownersPaths), when the repository has one. */
  codeowners?: { file: string; text: string };
  verification?: SourceVerification;
  /** The texts of the verification's key files, when they read. */
  allowedSigners?: string;
  openpgpKeys?: string;
}): TenantFileEditors[] {
  const byFile = new Map<string, string[]>();
  for (const t of opts.tenants) byFile.set(t.source.file, [...(byFile.get(t.source.file) ?? []), t.name]);
  const rules = opts.codeowners ? parseCodeowners(opts.codeowners.text) : [];
  const signers = opts.verification && {
    mode: opts.verification.mode,
    principals: principalsOf(opts.allowedSigners ?? ''),
    openpgpKeys: (opts.openpgpKeys ?? '').split('-----BEGIN PGP PUBLIC KEY BLOCK-----').length - 1,
  };
  return [...byFile]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([file, tenants]) => {
      const rule = ownersRuleOf(rules, file);
      const codeowners = rule && {
        file: opts.codeowners!.file,
        line: rule.line,
        pattern: rule.pattern,
        owners: rule.owners,
      };
      const owned = codeowners !== undefined && codeowners.owners.length > 0;
      const head = `${file} (Tenant${tenants.length > 1 ? 's' : ''} ${tenants.join(', ')})`;
      const who = owned
        ? `a change needs the approval of ${codeowners.owners.join(', ')} (${codeowners.file} line ${codeowners.line}: ${codeowners.pattern}), when the source branch requires code owners' reviews`
        : codeowners
          ? `${codeowners.file} line ${codeowners.line} (${codeowners.pattern}) leaves it without owners: anyone who may push to the source branch may change it`
          : `no CODEOWNERS rule covers it${opts.codeowners ? ` (${opts.codeowners.file})` : ' (the repository has no CODEOWNERS file)'}: anyone who may push to the source branch may change it`;
      return {
        file,
        tenants,
        ...(codeowners ? { codeowners } : {}),
        ...(signers ? { signers } : {}),
        severity: owned ? 'info' : 'warning',
        message: `${head}: ${who}${signers ? `; ${signedBy(signers)}` : ''}`,
      };
    });
}

function signedBy(signers: NonNullable<TenantFileEditors['signers']>): string {
  const keys = [
    ...signers.principals,
    ...(signers.openpgpKeys > 0
      ? [`${signers.openpgpKeys} OpenPGP key${signers.openpgpKeys > 1 ? 's' : ''}`]
      : []),
  ];
  const which = signers.mode === 'strict' ? 'every commit that changes it' : 'the commit the hub renders';
  return keys.length > 0
    ? `${which} must be signed by ${keys.join(', ')} (sourceVerification ${signers.mode})`
    : `sourceVerification ${signers.mode} names no key that reads: no commit is rendered`;
}

// The principals of git's allowed_signers lines (ssh-keygen(1)): the first field, comma-separated.
function principalsOf(text: string): string[] {
  const principals = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    for (const p of line.split(/\s+/)[0]!.replace(/^"|"$/g, '').split(',')) if (p) principals.add(p);
  }
  return [...principals].sort();
}
