// Open file descriptors of pack files, shared by every reader in the process and bounded in
// number. A pack's name is its checksum, so the bytes behind a path never change while the path
// exists; a descriptor kept open after a repack removed its file still reads the same bytes, and
// is closed when it is evicted or when a reader's listing finds the file gone. Readers are made
// and dropped per call (withCache), so descriptors cannot belong to them: nothing would close them.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const maxOpen = 64;
const open = new Map<string, { fd: number; size: number }>();

/** Returns the open descriptor and size of the file at `path`; throws the open's error (ENOENT when it is gone). */
export function packHandle(path: string): { fd: number; size: number } {
  const held = open.get(path);
  if (held !== undefined) {
    open.delete(path);
    open.set(path, held);
    return held;
  }
  const fd = openSync(path, 'r');
  const handle = { fd, size: fstatSync(fd).size };
  open.set(path, handle);
  for (const [p, h] of open) {
    if (open.size <= maxOpen) break;
    open.delete(p);
    closeSync(h.fd);
  }
  return handle;
}

/** Closes the descriptor of a file that is gone from its directory. */
export function closePackHandle(path: string): void {
  const held = open.get(path);
  if (held === undefined) return;
  open.delete(path);
  closeSync(held.fd);
}

/** How many pack files are open (for tests and the soak benchmark). */
export function openPackHandleCount(): number {
  return open.size;
}

/** Reads `length` bytes at `position` of the file; returns fewer only when the file ends first. */
export function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}
