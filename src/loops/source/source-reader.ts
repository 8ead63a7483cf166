// What source verification reads from a repository: commits (their bytes, parents and message)
// and, for the key files the policy names, one file of a commit's tree by its path.
import { parseCommit } from '../../adapters/git/parse-commit.js';
import { readGitObject, withCache, type ObjectSource } from '../../adapters/git/read-git-object.js';
import { parseTree, treeMode } from '../../adapters/git/tree-object.js';

/** A commit as verification needs it. */
export interface SourceCommitObject {
  oid: string;
  content: Uint8Array;
  parents: string[];
  message: string;
  tree: string;
}

/** Reads commits and files of one repository. */
export interface SourceReader {
  commit(oid: string): Promise<SourceCommitObject>;
  /** Returns the text of the file at `path` in the commit's tree, undefined when there is none. */
  file(commit: string, path: string): Promise<string | undefined>;
}

/** The largest key file read: no list of keys is that large. */
const maxKeyFileBytes = 1024 * 1024;

/** Returns a reader of the repository at `gitdir`. */
export function sourceReader(gitdir: string): SourceReader {
  const source: ObjectSource = withCache({ gitdir });
  const commit = async (oid: string): Promise<SourceCommitObject> => {
    const object = await readGitObject(source, oid);
    if (object.type !== 'commit') throw new Error(`${oid}: a ${object.type}, not a commit`);
    const parsed = parseCommit(object.content);
    return {
      oid,
      content: object.content,
      parents: parsed.parents,
      message: parsed.message,
      tree: parsed.tree ?? '',
    };
  };
  return {
    commit,
    async file(oid, path) {
      let at = (await commit(oid)).tree;
      const parts = path.split('/');
      for (const [index, name] of parts.entries()) {
        const entry = parseTree((await readGitObject(source, at)).content, at).find((e) => e.name === name);
        if (entry === undefined || index < parts.length - 1 !== (entry.mode === treeMode)) return undefined;
        at = entry.oid;
      }
      const blob = await readGitObject(source, at);
      if (blob.content.length > maxKeyFileBytes)
        throw new Error(
          `${path}: ${blob.content.length} bytes, over the ${maxKeyFileBytes}-byte limit of a key file`,
        );
      return Buffer.from(blob.content).toString('utf8');
    },
  };
}
