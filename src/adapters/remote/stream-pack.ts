// The pack a push sends: header, the entries as the object reader gives them (whole objects,
// mostly copied from the mirror's packs), and the SHA-1 of all of it, produced in chunks of
// about 256 KiB as the request body is sent.
import { createHash } from 'node:crypto';
import { encodePackHeader } from '../git/encode-pack-entry.js';
import type { ObjectReader } from './object-reader.js';

const chunkBytes = 256 * 1024;

/** Yields the pack of the given objects, ending with its checksum. */
export async function* streamPack(reader: ObjectReader, oids: readonly string[]): AsyncGenerator<Buffer> {
  const hash = createHash('sha1');
  const emit = (bytes: Buffer): Buffer => {
    hash.update(bytes);
    return bytes;
  };
  yield emit(encodePackHeader(oids.length));
  let chunk: Buffer[] = [];
  let size = 0;
  for await (const entry of reader.packEntries(oids)) {
    chunk.push(entry);
    size += entry.length;
    if (size >= chunkBytes) {
      yield emit(Buffer.concat(chunk));
      chunk = [];
      size = 0;
    }
  }
  if (chunk.length > 0) yield emit(Buffer.concat(chunk));
  yield hash.digest();
}
