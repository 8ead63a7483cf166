// The error of a fetch whose pack arrived damaged, in gitfleet's words. isomorphic-git reports a
// pack that does not inflate as an InternalError whose message asks the user to report a bug
// in the library ("An internal error caused this command to fail … please report"); that is
// not what happened and not what to do, so only its own reason (the zlib error) is kept.
import { RemoteError } from './remote-error.js';

/** Returns what a library error says went wrong, without isomorphic-git's request to report a bug. */
export function libraryReason(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    data?: { message?: unknown };
  };
  const own = e.code === 'InternalError' && typeof e.data?.message === 'string' ? e.data.message : undefined;
  const text = own ?? (typeof e.message === 'string' ? e.message : String(error));
  // pako, isomorphic-git's zlib, prefixes its messages so; the bytes are what did not inflate.
  return text.replace(/^Pako error: /, 'its data does not inflate: ');
}

/** Returns the DamagedPack error of a fetch from `url` into the mirror `gitdir`: what was wrong, that nothing moved, what to do. */
export function damagedPackError(opts: { url: string; gitdir: string; reason: string }): RemoteError {
  return new RemoteError(
    'DamagedPack',
    `${opts.url}: fetch failed: the pack the server sent is damaged (${opts.reason}); nothing moved: the mirror ${opts.gitdir} is rebuilt at the next refresh; if this repeats, run git fsck in the served repository and check any proxy between`,
  );
}
