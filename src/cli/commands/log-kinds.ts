// The kinds `gitfleet log` can name besides the built-in ones: those the cluster branches hold
// now in the followed object's namespace directory (`<ns>/<Kind>[.<group>]/`), read from each
// branch head (two tree reads a branch; read only when the typed kind is not a built-in one).
import type { PresentKind } from '../../core/review/kind-names.js';
import { namespaceDir, type ObjectSpec } from '../../core/review/parse-object-spec.js';
import { branchHead, readCommitHead, readLogTree, treeEntryOid, type LogRepo } from './log-objects.js';

/** Returns the kinds of the object's namespace directory on the branches' heads, each once. */
export function kindsOnBranches(
  repo: LogRepo,
  branches: readonly { branch: string }[],
  object: ObjectSpec,
): PresentKind[] {
  const seen = new Set<string>();
  const kinds = new Map<string, PresentKind>();
  for (const { branch } of branches) {
    const head = branchHead(repo, branch);
    if (head === undefined) continue;
    const ns = treeEntryOid(repo, readCommitHead(repo, head).tree, namespaceDir(object));
    if (ns === undefined || seen.has(ns)) continue;
    seen.add(ns);
    for (const entry of readLogTree(repo, ns)) {
      if (entry.type !== 'tree') continue;
      const dot = entry.path.indexOf('.');
      const kind = dot < 0 ? entry.path : entry.path.slice(0, dot);
      kinds.set(entry.path, { kind, group: dot < 0 ? '' : entry.path.slice(dot + 1) });
    }
  }
  return [...kinds.values()];
}
