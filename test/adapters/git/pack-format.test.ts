import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { encodePackEntryHeader, encodePackHeader } from '../../../src/adapters/git/encode-pack-entry.js';
import { encodePackIndex } from '../../../src/adapters/git/encode-pack-index.js';
import type { GitObjectType } from '../../../src/adapters/git/git-object.js';

// Expected bytes worked out by hand from gitformat-pack(5): first byte = continuation bit,
// 3 type bits, low 4 size bits; then 7 size bits per byte, least significant first.
const headerCases: { name: string; given: { type: GitObjectType; size: number }; want: number[] }[] = [
  { name: 'An empty blob needs one header byte.', given: { type: 'blob', size: 0 }, want: [0x30] },
  { name: 'A size up to 15 fits in the first byte.', given: { type: 'tree', size: 15 }, want: [0x2f] },
  {
    name: 'A size of 16 spills into a second byte.',
    given: { type: 'commit', size: 16 },
    want: [0x90, 0x01],
  },
  { name: 'A size of 2047 takes two bytes.', given: { type: 'blob', size: 2047 }, want: [0xbf, 0x7f] },
  {
    name: 'A size of 2048 takes three bytes.',
    given: { type: 'blob', size: 2048 },
    want: [0xb0, 0x80, 0x01],
  },
  {
    name: 'A size beyond 32 bits is encoded without overflow.',
    given: { type: 'blob', size: 2 ** 33 + 5 },
    want: [0xb5, 0x80, 0x80, 0x80, 0x80, 0x02],
  },
];

for (const { name, given, want } of headerCases) {
  test(name, () => {
    assert.deepEqual([...encodePackEntryHeader(given.type, given.size)], want);
  });
}

test('The pack header says PACK, version 2 and the object count, big-endian.', () => {
  assert.equal(
    encodePackHeader(258).toString('hex'),
    Buffer.from('PACK').toString('hex') + '00000002' + '00000102',
  );
});

test('An index sorts ids, counts them in the fanout and moves offsets of 2 GiB and beyond to the 64-bit table.', () => {
  const checksum = Buffer.alloc(20, 0xab);
  const small = { oid: 'ff'.repeat(20), crc32: 0xdeadbeef, offset: 12 };
  const large = { oid: '01'.repeat(20), crc32: 1, offset: 2 ** 31 + 7 };
  const larger = { oid: '02'.repeat(20), crc32: 2, offset: 2 ** 40 };
  const idx = encodePackIndex([small, larger, large], checksum);
  assert.equal(idx.subarray(0, 8).toString('hex'), 'ff744f6300000002');
  const fanout = (byte: number): number => idx.readUInt32BE(8 + byte * 4);
  assert.deepEqual([fanout(0), fanout(1), fanout(2), fanout(0xfe), fanout(0xff)], [0, 1, 2, 2, 3]);
  const ids = 8 + 1024;
  assert.deepEqual(
    [0, 1, 2].map((i) => idx.toString('hex', ids + i * 20, ids + i * 20 + 20)),
    [large.oid, larger.oid, small.oid],
  );
  const crcs = ids + 60;
  assert.deepEqual(
    [0, 1, 2].map((i) => idx.readUInt32BE(crcs + i * 4)),
    [1, 2, 0xdeadbeef],
  );
  const offsets = crcs + 12;
  assert.deepEqual(
    [0, 1, 2].map((i) => idx.readUInt32BE(offsets + i * 4)),
    [0x80000000, 0x80000001, 12],
  );
  const table = offsets + 12;
  assert.equal(idx.readBigUInt64BE(table), BigInt(2 ** 31 + 7));
  assert.equal(idx.readBigUInt64BE(table + 8), BigInt(2 ** 40));
  assert.ok(idx.subarray(table + 16, table + 36).equals(checksum));
  const digest = createHash('sha1')
    .update(idx.subarray(0, table + 36))
    .digest();
  assert.ok(idx.subarray(table + 36).equals(digest));
  assert.equal(idx.length, table + 56);
});
