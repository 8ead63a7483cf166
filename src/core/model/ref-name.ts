// Ref names git accepts (git-check-ref-format(1)), limited to full names under refs/, which is
// all gitfleet writes; and the branch prefix rule every part of gitfleet applies with it, so a
// prefix `validate` passes is one the hub can write under.
import { quoteText } from './quote-text.js';

/** Returns whether git would accept the full ref name (`refs/...`). */
export function isValidRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.endsWith('/') || ref.endsWith('.')) return false;
  // No `..`, `@{`, `//`, backslash, space, ~ ^ : ? * [, and no control characters.
  if (/\.\.|@\{|\/\/|[\\ ~^:?*[]/.test(ref) || [...ref].some((c) => c < ' ' || c === '\x7f')) return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** Returns the branch prefix as gitfleet uses it: with a trailing '/' added when missing. */
export function normalizeBranchPrefix(prefix: string): string {
  return prefix.endsWith('/') ? prefix : `${prefix}/`;
}

/**
 * Returns the problem with a branch prefix (normalized or not), or undefined: every branch under
 * it must be a valid ref, and, when the source branch is known, none may sit under the source
 * branch or be it (git keeps a ref as a file, so refs/heads/main and refs/heads/main/x cannot
 * both exist).
 */
export function checkBranchPrefix(prefix: string, sourceBranch?: string): string | undefined {
  const quoted = quoteText(prefix);
  const p = normalizeBranchPrefix(prefix);
  if (p === '/' || !isValidRefName(`refs/heads/${p}clusters/x`)) {
    return `${quoted}: not a usable git branch prefix: it must make valid branch names (git check-ref-format), e.g. gitfleet/`;
  }
  if (sourceBranch === undefined) return undefined;
  const source = sourceBranch.replace(/^refs\/heads\//, '');
  if (p.startsWith(`${source}/`)) {
    return (
      `${quoted}: puts gitfleet's branches under the source branch ${source} (refs/heads/${source}/…), ` +
      `which git cannot hold beside refs/heads/${source}`
    );
  }
  const own = [`${p}clusters/`, `${p}status/`, `${p}bindings/`];
  if (source === `${p}bindings` || own.some((o) => source.startsWith(o))) {
    return `${quoted}: the source branch ${source} is one of gitfleet's own branches under this prefix`;
  }
  return undefined;
}
