// The one entry point callers use to store objects: a handful go loose, more go into one pack.
//
// Why a threshold: every pack adds an index each reader must consult, so a pack per small
// write makes a long-running hub's repository slower to read until someone repacks, while a
// loose object is found first by every reader. Cost, measured with fsync on ext4: loose
// objects ~1 ms each (written side by side), a pack 5-10 ms whatever its size; so up to 16
// objects, a pass pays at most ~10 ms to add no pack, and beyond that one pack is cheaper.
import { selectNewObjects } from './select-new-objects.js';
import { writeLooseObjects } from './write-loose-objects.js';
import { writePack, type WriteObjectsResult, type WritePackOptions } from './write-pack.js';

/** At most this many new objects are written loose unless the caller says otherwise. */
export const defaultLooseLimit = 16;

/** Writes the new objects, loose or as one pack by their number, and returns the pack's path (null when loose or none) and how many were written. */
export async function writeObjects(
  opts: WritePackOptions & { looseLimit?: number },
): Promise<WriteObjectsResult> {
  const objects = selectNewObjects(opts.objects, opts.exists);
  if (objects.length > (opts.looseLimit ?? defaultLooseLimit)) {
    return writePack({ ...opts, objects, exists: () => false });
  }
  const { count } = await writeLooseObjects({ gitdir: opts.gitdir, objects, fsync: opts.fsync ?? true });
  return { packFile: null, count };
}
