// Appends to a file through a 1 MiB buffer while keeping the SHA-1 of everything written,
// which is exactly what a packfile's trailer needs.
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

const flushAt = 1024 * 1024;

/** A buffered, hashing appender over an open file. */
export class HashingFileWriter {
  private readonly hash: Hash = createHash('sha1');
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  /** Bytes written so far, buffered ones included: the offset of the next write. */
  position = 0;

  constructor(private readonly file: FileHandle) {}

  /** Queues bytes for the file; resolves once any full buffer has been written. */
  async write(bytes: Uint8Array): Promise<void> {
    this.hash.update(bytes);
    this.chunks.push(bytes);
    this.buffered += bytes.length;
    this.position += bytes.length;
    if (this.buffered >= flushAt) await this.flush();
  }

  /** Writes what is buffered, appends the SHA-1 of all bytes written and returns that SHA-1. */
  async finish(): Promise<Buffer> {
    const checksum = this.hash.digest();
    this.chunks.push(checksum);
    this.buffered += checksum.length;
    this.position += checksum.length;
    await this.flush();
    return checksum;
  }

  private async flush(): Promise<void> {
    const chunk = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    await this.file.write(chunk);
  }
}
