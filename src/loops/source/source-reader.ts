// What source verification reads from a repository: commits (their bytes, parents and message)
// and, for the key files the policy names, one file of a commit's tree by its path.
import { withCache, type ObjectSource } from '../../adapters/git/read-git-object.js';
import { readCommitAndBytes, readFileNow } from '../../adapters/git/read-typed-object.js';

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
    const { commit: parsed, content } = await readCommitAndBytes(source, oid);
    return { oid, content, parents: parsed.parents, message: parsed.message, tree: parsed.tree };
  };
  return {
    commit,
    async file(oid, path) {
      const blob = await Promise.resolve().then(() => readFileNow(source, oid, path));
      if (blob === undefined) return undefined;
      if (blob.length > maxKeyFileBytes)
        throw new Error(
          `${path}: ${blob.length} bytes, over the ${maxKeyFileBytes}-byte limit of a key file`,
        );
      return Buffer.from(blob).toString('utf8');
    },
  };
}
