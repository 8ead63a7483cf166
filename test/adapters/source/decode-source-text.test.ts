import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeSourceText, SourceTextError } from '../../../src/adapters/source/decode-source-text.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

const valid: { name: string; given: Uint8Array; want: string }[] = [
  { name: 'ASCII text is read as it is.', given: bytes('a: b\n'), want: 'a: b\n' },
  { name: 'Multi-byte characters are decoded.', given: bytes('a: é€😀\n'), want: 'a: é€😀\n' },
  {
    name: 'A leading byte-order mark is dropped.',
    given: bytes([0xef, 0xbb, 0xbf], 'a: b\n'),
    want: 'a: b\n',
  },
  {
    name: 'A U+FFFD written in the file is kept: it is valid UTF-8.',
    given: bytes('a: \ufffd\n'),
    want: 'a: \ufffd\n',
  },
];

for (const row of valid) test(row.name, () => assert.equal(decodeSourceText(row.given, 'f.yaml'), row.want));

const invalid: { name: string; given: Uint8Array; want: RegExp }[] = [
  {
    name: 'A stray continuation byte is refused at its offset and line.',
    given: bytes('a: b\nc: d', [0x80], '\n'),
    want: /^apps\/x\.yaml: not valid UTF-8 at byte 9 \(line 2\)/,
  },
  {
    name: 'A Latin-1 byte (0xff) is refused.',
    given: bytes('k: caf', [0xff], '\n'),
    want: /^apps\/x\.yaml: not valid UTF-8 at byte 6 \(line 1\)/,
  },
  {
    name: 'A sequence cut short by the end of the file is refused where it starts.',
    given: bytes('k: ', [0xe2, 0x82]),
    want: /at byte 3 \(line 1\)/,
  },
  {
    name: 'An overlong encoding of "/" is refused.',
    given: bytes('k: ', [0xc0, 0xaf]),
    want: /at byte 3 /,
  },
  {
    name: 'An encoded surrogate is refused.',
    given: bytes('k: ', [0xed, 0xa0, 0x80]),
    want: /at byte 3 /,
  },
];

for (const row of invalid) {
  test(row.name, () => {
    assert.throws(
      () => decodeSourceText(row.given, 'apps/x.yaml'),
      (error) =>
        error instanceof SourceTextError && error.code === 'InvalidUtf8' && row.want.test(error.message),
    );
  });
}
