// The git objects of a tombstoned cluster branch (core/publish/tombstone.ts says what a
// tombstone is, core/publish/render-move.ts the one a moved branch leaves behind): hashed here,
// in the loop, since core makes no git objects.
import type { GitObject } from '../../adapters/git/git-object.js';
import { toGitObject } from '../../adapters/git/hash-object.js';
import { encodeTree, fileMode, treeMode } from '../../adapters/git/tree-object.js';
import { movedTombstoneText } from '../../core/publish/render-move.js';
import { tombstoneText } from '../../core/publish/tombstone.js';

/** Returns the root tree of a tombstoned branch (the cluster removed, or its branch moved away) and the objects that make it up. */
export function tombstoneTree(
  cluster: string,
  reason: 'removed' | 'moved' = 'removed',
): { root: string; objects: GitObject[] } {
  const text = reason === 'moved' ? movedTombstoneText(cluster) : tombstoneText(cluster);
  const blob = toGitObject('blob', Buffer.from(text, 'utf8'));
  const dir = toGitObject('tree', encodeTree([{ mode: fileMode, name: 'tombstone.yaml', oid: blob.oid }]));
  const root = toGitObject('tree', encodeTree([{ mode: treeMode, name: '.gitfleet', oid: dir.oid }]));
  return { root: root.oid, objects: [blob, dir, root] };
}
