// A read-only view of the file system for isomorphic-git while it reads one commit's objects.
// isomorphic-git looks for every object first as a loose file and then lists objects/pack;
// for a packed repository that is one failed open and one directory listing per object, which
// costs more than inflating the object. This view lists each directory once per read and answers
// "no such file" for loose objects that the listing does not have, without touching the disk.
// isomorphic-git also probes the fs (a readFile without a path) and stats the git directory on
// every call; both are answered from memory. Files are read synchronously behind the promise
// interface: on this kind of machine a small read through libuv's thread pool costs several
// times the read itself.
import fs from 'node:fs';
import { basename, dirname } from 'node:path';

type ReaddirFn = (path: string) => Promise<string[]>;

/** Returns an fs client for isomorphic-git that caches listings and stats for the life of one read. */
export function objectStoreFs(gitdir: string): { promises: typeof fs.promises; relist: () => void } {
  const listings = new Map<string, Promise<string[]>>();
  const readdir: ReaddirFn = (path) => {
    let listing = listings.get(path);
    if (listing === undefined) {
      listing = readdirOrNothing(path);
      listings.set(path, listing);
    }
    return listing;
  };
  const objects = `${gitdir}/objects/`;
  const stats = new Map<string, ReturnType<typeof fs.promises.stat>>();
  const stat = (path: string): ReturnType<typeof fs.promises.stat> => {
    let result = stats.get(path);
    if (result === undefined) stats.set(path, (result = statNow(path)));
    return result;
  };
  const readFile = async (path: string, options?: unknown): Promise<unknown> => {
    if (path === undefined) throw NOT_FOUND;
    if (isLooseObjectPath(path, objects)) {
      const names = await readdir(dirname(path));
      if (!names.includes(basename(path))) throw NOT_FOUND;
    }
    return fs.readFileSync(path, options as Parameters<typeof fs.readFileSync>[1]);
  };
  return {
    promises: { ...fs.promises, readdir, readFile, stat } as unknown as typeof fs.promises,
    // A reader that found a pack gone (removed by a repack) lists again (read-git-object.ts).
    relist: () => listings.clear(),
  };
}

async function readdirOrNothing(path: string): Promise<string[]> {
  try {
    return fs.readdirSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw e;
  }
}

async function statNow(path: string): Promise<fs.Stats> {
  return fs.statSync(path);
}

// `<gitdir>/objects/ab/cdef…`: a loose object's file.
function isLooseObjectPath(path: string, objects: string): boolean {
  return path.startsWith(objects) && /^[0-9a-f]{2}\/[0-9a-f]{38}$/.test(path.slice(objects.length));
}

// isomorphic-git only asks whether a read failed with ENOENT, so one shared error serves every
// miss; building thousands of errors with stack traces costs more than the reads they replace.
const NOT_FOUND: NodeJS.ErrnoException = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
