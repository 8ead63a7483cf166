// The git objects of a tombstoned cluster branch (core/publish/tombstone.ts says what a
// tombstone is): hashed here, in the loop, since core makes no git objects.
import type { GitObject } from '../../adapters/git/git-object.js';
import { toGitObject } from '../../adapters/git/hash-object.js';
import { encodeTree, fileMode, treeMode } from '../../adapters/git/tree-object.js';
import { tombstoneText } from '../../core/publish/tombstone.js';

/** Returns the root tree of a tombstoned branch and the objects that make it up. */
export function tombstoneTree(cluster: string): { root: string; objects: GitObject[] } {
  const blob = toGitObject('blob', Buffer.from(tombstoneText(cluster), 'utf8'));
  const dir = toGitObject('tree', encodeTree([{ mode: fileMode, name: 'tombstone.yaml', oid: blob.oid }]));
  const root = toGitObject('tree', encodeTree([{ mode: treeMode, name: '.gitfleet', oid: dir.oid }]));
  return { root: root.oid, objects: [blob, dir, root] };
}
