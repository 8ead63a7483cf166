// git's delta format (gitformat-pack(5), "Deltified representation"): the base's size and the
// result's size as little-endian base-128 numbers, then instructions: a byte with the high bit
// set copies a span of the base (its low 4 bits say which offset bytes follow, the next 3 which
// size bytes; a size of 0 means 0x10000), a byte 1-127 inserts that many literal bytes, and 0 is
// reserved. Every size is checked, so a damaged delta is an error, never a wrong object.

/** Why a delta could not be applied (the caller names the pack and the object). */
export class DeltaError extends Error {}

/** Returns the result and base sizes a delta declares, and where its instructions start. */
export function readDeltaSizes(delta: Uint8Array): { baseSize: number; resultSize: number; at: number } {
  const base = readSize(delta, 0);
  const result = readSize(delta, base.at);
  return { baseSize: base.size, resultSize: result.size, at: result.at };
}

/** Returns the object the delta makes of `base`; throws DeltaError when the two do not fit. */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Buffer {
  const { baseSize, resultSize, at: start } = readDeltaSizes(delta);
  if (baseSize !== base.length) {
    throw new DeltaError(`the delta is for a base of ${baseSize} bytes, the base has ${base.length}`);
  }
  const out = Buffer.allocUnsafe(resultSize);
  let written = 0;
  let at = start;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += byteAt(delta, at++) * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) size |= byteAt(delta, at++) << (8 * i);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || written + size > resultSize) {
        throw new DeltaError(`a copy of ${size} bytes at ${offset} runs past the base or the result`);
      }
      out.set(base.subarray(offset, offset + size), written);
      written += size;
    } else if (op !== 0) {
      if (at + op > delta.length || written + op > resultSize) {
        throw new DeltaError(`an insert of ${op} bytes runs past the delta or the result`);
      }
      out.set(delta.subarray(at, at + op), written);
      written += op;
      at += op;
    } else {
      throw new DeltaError('reserved instruction 0');
    }
  }
  if (written !== resultSize)
    throw new DeltaError(`the delta makes ${written} bytes, it declares ${resultSize}`);
  return out;
}

function readSize(bytes: Uint8Array, from: number): { size: number; at: number } {
  let size = 0;
  let shift = 0;
  let at = from;
  for (;;) {
    const b = byteAt(bytes, at++);
    size += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return { size, at };
    if (shift > 49) throw new DeltaError('a size longer than 7 bytes');
  }
}

function byteAt(bytes: Uint8Array, at: number): number {
  const b = bytes[at];
  if (b === undefined) throw new DeltaError('the delta ends in the middle of an instruction');
  return b;
}
