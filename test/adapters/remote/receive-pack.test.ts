import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePktLines, encodePktLine, flushPacket } from '../../../src/adapters/remote/pkt-line.js';
import { parseAdvertisement } from '../../../src/adapters/remote/discover-refs.js';
import { parseReport } from '../../../src/adapters/remote/receive-pack.js';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);
const zero = '0'.repeat(40);
const frame = (...lines: (string | null)[]): Buffer =>
  Buffer.concat(lines.map((l) => (l === null ? flushPacket : encodePktLine(l))));

test('A pkt-line carries its length, header included, in four hex digits.', () => {
  assert.equal(encodePktLine('hello\n').toString(), '000ahello\n');
  assert.equal(encodePktLine('').toString(), '0004');
});

test('Packets decode back to their payloads, with flushes where they were.', () => {
  const decoded = decodePktLines(frame('one\n', null, 'two'));
  assert.deepEqual(
    decoded.map((p) => (p.type === 'data' ? p.data.toString() : p.type)),
    ['one\n', 'flush', 'two'],
  );
});

test('A truncated or malformed packet stream is an error, not a partial answer.', () => {
  assert.throws(() => decodePktLines(Buffer.from('000ahel')), /truncated/);
  assert.throws(() => decodePktLines(Buffer.from('zzzz')), /malformed/);
});

const ads: { name: string; given: Buffer; want: { refs: [string, string][]; caps: string[] } }[] = [
  {
    name: "A repository's advertisement gives each ref and the capabilities on the first line.",
    given: frame(
      '# service=git-receive-pack\n',
      null,
      `${a} refs/heads/main\0report-status atomic delete-refs ofs-delta\n`,
      `${b} refs/heads/gitfleet/clusters/x\n`,
      null,
    ),
    want: {
      refs: [
        ['refs/heads/main', a],
        ['refs/heads/gitfleet/clusters/x', b],
      ],
      caps: ['report-status', 'atomic', 'delete-refs', 'ofs-delta'],
    },
  },
  {
    name: 'An empty repository advertises its capabilities on a placeholder and no refs.',
    given: frame('# service=git-receive-pack\n', null, `${zero} capabilities^{}\0report-status\n`, null),
    want: { refs: [], caps: ['report-status'] },
  },
];

for (const { name, given, want } of ads) {
  test(name, () => {
    const ad = parseAdvertisement(given);
    assert.deepEqual([...ad.refs], want.refs);
    assert.deepEqual([...ad.capabilities], want.caps);
  });
}

const errors = { action: 'push', url: 'https://host/fleet.git', secrets: [] };

test('A report gives null for each ref that moved and the reason for each that did not.', () => {
  const report = parseReport(
    frame('unpack ok\n', 'ok refs/heads/a\n', 'ng refs/heads/b failed to update ref\n', null),
    errors,
  );
  assert.deepEqual(
    [...report],
    [
      ['refs/heads/a', null],
      ['refs/heads/b', 'failed to update ref'],
    ],
  );
});

test('A pack the remote could not unpack is an error naming the remote.', () => {
  assert.throws(
    () =>
      parseReport(
        frame('unpack index-pack abnormal exit\n', 'ng refs/heads/a unpacker error\n', null),
        errors,
      ),
    (e: unknown) =>
      e instanceof RemoteError && e.code === 'RemoteFailed' && e.message.includes('index-pack abnormal exit'),
  );
});
