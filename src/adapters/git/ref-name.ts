// Ref names git accepts (git-check-ref-format(1)), limited to full names under refs/, which is
// all gitfleet writes.
import { GitWriteError } from './git-write-error.js';

/** Returns whether git would accept the full ref name (`refs/...`). */
export function isValidRefName(ref: string): boolean {
  if (!ref.startsWith('refs/') || ref.endsWith('/') || ref.endsWith('.')) return false;
  // No `..`, `@{`, `//`, backslash, space, ~ ^ : ? * [, and no control characters.
  if (/\.\.|@\{|\/\/|[\\ ~^:?*[]/.test(ref) || [...ref].some((c) => c < ' ' || c === '\x7f')) return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** Throws InvalidRefName unless git would accept the full ref name. */
export function assertValidRefName(ref: string): void {
  if (!isValidRefName(ref)) {
    throw new GitWriteError('InvalidRefName', `${ref}: not a valid full ref name (git check-ref-format)`);
  }
}
