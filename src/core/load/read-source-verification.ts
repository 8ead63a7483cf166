// The FleetConfig's `spec.sourceVerification`:
//
//   sourceVerification:
//     mode: head                     # head (the default) or strict
//     allowedSigners: .gitfleet/allowed_signers   # git's allowed_signers format, a path in the repository
//     openpgpKeys: .gitfleet/openpgp-keys.asc     # armored OpenPGP public keys
//
// Key paths may be left out when the hub is given the keys by its flags
// (--source-allowed-signers, --source-openpgp-keys); the hub refuses a policy with no key at all.
import { quoteText } from '../model/quote-text.js';
import type { SourceVerification } from '../model/source-verification.js';
import { childPath, readMap, readString, type Issues } from './field-reader.js';

/** Returns the policy, undefined when absent; problems go to `issues`. */
export function readSourceVerification(
  value: unknown,
  path: string,
  issues: Issues,
): SourceVerification | undefined {
  if (value === undefined || value === null) return undefined;
  const map = readMap(value, path, issues);
  if (!map) return undefined;
  const mode = readString(map['mode'], childPath(path, 'mode'), issues) ?? 'head';
  if (mode !== 'head' && mode !== 'strict') {
    issues.push({ path: childPath(path, 'mode'), message: `${quoteText(mode)}: must be head or strict` });
    return undefined;
  }
  const policy: SourceVerification = { mode };
  for (const key of ['allowedSigners', 'openpgpKeys'] as const) {
    const file = readString(map[key], childPath(path, key), issues);
    if (file === undefined) continue;
    const bad = checkRepoPath(file);
    if (bad) issues.push({ path: childPath(path, key), message: `${quoteText(file)}: ${bad}` });
    else policy[key] = file;
  }
  return policy;
}

function checkRepoPath(file: string): string | undefined {
  if (file === '' || file.startsWith('/') || file.endsWith('/'))
    return 'must be a file path from the repository root';
  if (file.split('/').some((part) => part === '..' || part === '.' || part === ''))
    return 'must not hold empty, . or .. segments';
  return undefined;
}
