// SSH's wire encoding (RFC 4251 §5): uint32 big-endian lengths, `string` as a length and bytes.
// What the OpenSSH key formats and the SSHSIG signature blob are made of.

/** Reads SSH wire values in order; every read throws a plain Error past the end. */
export class SshReader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}

  /** Returns the next uint32. */
  uint32(): number {
    if (this.offset + 4 > this.bytes.length) throw new Error('truncated: a uint32 past the end');
    const value = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  /** Returns the next `string` (length-prefixed bytes). */
  string(): Buffer {
    const length = this.uint32();
    if (this.offset + length > this.bytes.length) {
      throw new Error(`truncated: a string of ${length} bytes past the end`);
    }
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** Returns the next `string` as text. */
  text(): string {
    return this.string().toString('utf8');
  }

  /** Returns the next `count` raw bytes. */
  raw(count: number): Buffer {
    if (this.offset + count > this.bytes.length) throw new Error(`truncated: ${count} bytes past the end`);
    const value = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return value;
  }

  /** Returns the bytes not read yet. */
  rest(): Buffer {
    return this.bytes.subarray(this.offset);
  }
}

/** Returns the SSH `string` encoding of each value, concatenated (a number is a uint32). */
export function sshEncode(...values: (Buffer | string | number)[]): Buffer {
  const parts: Buffer[] = [];
  for (const value of values) {
    if (typeof value === 'number') {
      const n = Buffer.alloc(4);
      n.writeUInt32BE(value);
      parts.push(n);
      continue;
    }
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}
