// git's pkt-line framing (gitprotocol-common(5)): four hex digits giving the line's length
// including themselves, then the payload; `0000` is a flush packet. Used for the receive-pack
// exchange (ref advertisement, commands, report-status) and its side-band.
import { ProtocolError } from './protocol-error.js';

/** A flush packet: the end of a section. */
export const flushPacket = Buffer.from('0000', 'latin1');

/** The largest payload a pkt-line may carry (65520 bytes with the header). */
const maxPayload = 65516;

/** Returns the payload framed as one pkt-line. */
export function encodePktLine(payload: string | Buffer): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  if (data.length > maxPayload) throw new RangeError(`pkt-line payload of ${data.length} bytes is too long`);
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, '0'), 'latin1'), data]);
}

/** One decoded packet: a payload, or a flush (`0000`) or delimiter (`0001`). */
export type Packet = { type: 'data'; data: Buffer } | { type: 'flush' } | { type: 'delim' };

/** Returns the packets of a complete buffer, or throws on a malformed or truncated one. */
export function decodePktLines(buffer: Buffer): Packet[] {
  const packets: Packet[] = [];
  let at = 0;
  while (at < buffer.length) {
    const head = buffer.toString('latin1', at, at + 4);
    if (!/^[0-9a-f]{4}$/.test(head))
      throw new ProtocolError(
        'MalformedPktLine',
        `pkt-line at byte ${at}: malformed length ${JSON.stringify(head)}`,
      );
    const length = parseInt(head, 16);
    if (length === 0 || length === 1) {
      packets.push({ type: length === 0 ? 'flush' : 'delim' });
      at += 4;
      continue;
    }
    if (length < 4 || at + length > buffer.length)
      throw new ProtocolError('MalformedPktLine', `pkt-line at byte ${at}: truncated`);
    packets.push({ type: 'data', data: buffer.subarray(at + 4, at + length) });
    at += length;
  }
  return packets;
}

/** Returns a data packet's payload as text without its trailing newline. */
export function packetText(packet: Packet): string | null {
  return packet.type === 'data' ? packet.data.toString('utf8').replace(/\n$/, '') : null;
}
