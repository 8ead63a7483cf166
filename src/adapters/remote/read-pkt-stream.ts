// pkt-lines read as they arrive (pkt-line.ts decodes a whole buffer): a fetch's answer carries
// the pack, which may be large, so it is framed packet by packet without holding all of it.
import type { Packet } from './pkt-line.js';
import { ProtocolError } from './protocol-error.js';

/** Yields the packets of a byte stream; throws MalformedPktLine on a bad length, BadAnswer when cut off mid-packet. */
export async function* readPktStream(body: AsyncIterable<Buffer>): AsyncGenerator<Packet> {
  let pending: Buffer = Buffer.alloc(0);
  let offset = 0; // bytes of the stream before `pending`, for messages
  for await (const chunk of body) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    while (pending.length - at >= 4) {
      const head = pending.toString('latin1', at, at + 4);
      if (!/^[0-9a-f]{4}$/.test(head))
        throw new ProtocolError(
          'MalformedPktLine',
          `pkt-line at byte ${offset + at}: malformed length ${JSON.stringify(head)}`,
        );
      const length = parseInt(head, 16);
      if (length === 0 || length === 1) {
        yield { type: length === 0 ? 'flush' : 'delim' };
        at += 4;
        continue;
      }
      if (length < 4)
        throw new ProtocolError('MalformedPktLine', `pkt-line at byte ${offset + at}: length ${length}`);
      if (pending.length - at < length) break;
      yield { type: 'data', data: pending.subarray(at + 4, at + length) };
      at += length;
    }
    offset += at;
    pending = pending.subarray(at);
  }
  if (pending.length > 0)
    throw new ProtocolError('BadAnswer', `pkt-line at byte ${offset}: the answer was cut off`);
}
