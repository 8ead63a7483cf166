// What a revision starts from, for saying which commits a command compared and for refusing
// an ambiguous HEAD (gitfleet diff, docs/review.md): the ref it reads (`main` →
// refs/heads/main, `HEAD` → the branch HEAD names) and whether it reads the repository's
// HEAD at all (`HEAD`, `@`, `HEAD~2`, and `@{1}` / `@{u}`, which read the current branch).
import { parseRevision, refCandidates } from '../../core/model/parse-revision.js';
import { openRefStore, resolveRefName, symbolicTarget } from './read-refs.js';

/** Where a revision starts in a repository. */
export interface RevisionOrigin {
  /** The full ref it reads first (refs/heads/main; `HEAD` when HEAD is detached), if it reads a ref. */
  ref?: string;
  /** True when it reads the repository's HEAD or its current branch. */
  readsHead: boolean;
  /** The commit HEAD points at when it reads HEAD (undefined: an unborn branch). */
  headOid?: string;
}

/** Returns where `text` starts in the repository at `gitdir` (nothing for a revision that does not parse). */
export function revisionOrigin(gitdir: string, text: string): RevisionOrigin {
  const parsed = parseRevision(text);
  if (!parsed.ok) return { readsHead: false };
  const refs = openRefStore(gitdir);
  const base = parsed.revision.base;
  const head = (): RevisionOrigin => {
    const oid = resolveRefName(refs, 'HEAD');
    return { ref: symbolicTarget(refs, 'HEAD') ?? 'HEAD', readsHead: true, ...(oid ? { headOid: oid } : {}) };
  };
  switch (base.type) {
    case 'head':
      return head();
    case 'reflog':
    case 'upstream': {
      const name = base.type === 'reflog' ? base.ref : base.branch;
      if (name === '' || name === 'HEAD') return head();
      return { readsHead: false };
    }
    case 'name': {
      if (/^[0-9a-fA-F]{40}$/.test(base.name)) return { readsHead: false };
      const ref = refCandidates(base.name).find((r) => resolveRefName(refs, r) !== undefined);
      return ref === undefined ? { readsHead: false } : { ref, readsHead: false };
    }
    case 'messageSearch':
      return { readsHead: false };
  }
}
