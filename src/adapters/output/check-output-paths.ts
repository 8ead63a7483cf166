// A rendered path is written to disk only if it can be written faithfully everywhere a user may
// render: no file or directory name over the 255-byte limit most file systems put on one name
// (ext4, XFS, btrfs, APFS, NTFS), no whole path over Linux's 4,096-byte PATH_MAX, and no two
// paths that differ only in case (or in Unicode normalization), which a case-insensitive file
// system (macOS, Windows) would write to one file. The cluster branches keep the same layout in
// git trees, where none of these limits exist, so the layout is not changed for the directory:
// such a render is refused before anything is written, and the branches stay the one truth.
import { resolve } from 'node:path';
import { quoteText } from '../../core/model/quote-text.js';
import { OutputDirError } from './output-dir-error.js';

const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4095; // PATH_MAX (4,096) counts the terminating NUL

/** Throws an OutputDirError naming the first rendered path that cannot be written under `dir`. */
export function checkOutputPaths(
  dir: string,
  clusters: ReadonlyMap<string, ReadonlyMap<string, string>>,
): void {
  const rootBytes = Buffer.byteLength(resolve(dir));
  /** Folded form of every path and directory prefix → the path as rendered and the file it is in. */
  const folded = new Map<string, { prefix: string; file: string }>();
  for (const [cluster, files] of clusters) {
    for (const path of files.keys()) {
      const file = `${cluster}/${path}`;
      checkLengths(dir, file, rootBytes);
      let prefix = '';
      for (const name of file.split('/')) {
        prefix = prefix ? `${prefix}/${name}` : name;
        const key = prefix.normalize('NFC').toLowerCase();
        const seen = folded.get(key);
        if (seen === undefined) folded.set(key, { prefix, file });
        else if (seen.prefix !== prefix) {
          throw new OutputDirError(
            'UnsafeOutputPath',
            `${seen.file} and ${file} differ only in case: a case-insensitive file system would ` +
              `write them to one place; refusing to write ${dir} (the cluster branches hold both)`,
          );
        }
      }
    }
  }
}

function checkLengths(dir: string, file: string, rootBytes: number): void {
  for (const name of file.split('/')) {
    const bytes = Buffer.byteLength(name);
    if (bytes > MAX_NAME_BYTES) {
      throw new OutputDirError(
        'UnsafeOutputPath',
        `${file}: the name ${quoteText(name.slice(0, 40) + '…')} is ${bytes} bytes, longer than the ` +
          `${MAX_NAME_BYTES} bytes a file system allows in one name; refusing to write ${dir} ` +
          `(the cluster branches hold it)`,
      );
    }
  }
  const bytes = rootBytes + 1 + Buffer.byteLength(file);
  if (bytes > MAX_PATH_BYTES) {
    throw new OutputDirError(
      'UnsafeOutputPath',
      `${file}: its full path under ${dir} is ${bytes} bytes, longer than the ${MAX_PATH_BYTES} a path may be; ` +
        'refusing to write (render into a shorter directory)',
    );
  }
}
