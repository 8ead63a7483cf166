import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffRenders, type RenderSide } from '../../../src/core/review/diff-renders.js';
import { formatDiffMarkdown } from '../../../src/core/review/format-diff-markdown.js';
import { formatDiffText } from '../../../src/core/review/format-diff-text.js';

function side(files: Record<string, string>): RenderSide {
  return {
    clusters: new Map([['m1', { files: new Map(Object.entries(files)) }]]),
    bindings: [],
    diagnostics: [],
  };
}

const path = 'shop/Secret/db.yaml';
const secret = (data: Record<string, string>, stringData: Record<string, string> = {}) =>
  [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    '  name: db',
    '  namespace: shop',
    '  annotations:',
    `    kubectl.kubernetes.io/last-applied-configuration: '{"data":${JSON.stringify(data)}}'`,
    'data:',
    ...Object.entries(data).map(([k, v]) => `  ${k}: ${v}`),
    ...(Object.keys(stringData).length > 0 ? ['stringData:'] : []),
    ...Object.entries(stringData).map(([k, v]) => `  ${k}: |\n    ${v}\n    second-line-${v}`),
    'type: Opaque',
    '',
  ].join('\n');

// Values in plain text and in base64; none of them may be printed in any form.
const values = ['b2xkLXRva2Vu', 'bmV3LXRva2Vu', 'c2FtZS11c2Vy', 'Z29uZQ==', 'hunter2', 'hunter3'];

const base = side({
  [path]: secret({ token: 'b2xkLXRva2Vu', user: 'c2FtZS11c2Vy', gone: 'Z29uZQ==' }, { pw: 'hunter2' }),
});
const head = side({
  [path]: secret({ token: 'bmV3LXRva2Vu', user: 'c2FtZS11c2Vy', fresh: 'bmV3LXRva2Vu' }, { pw: 'hunter3' }),
});

test('A changed Secret shows, per key, only that it was added, changed or removed, in every diff format.', () => {
  const diff = diffRenders({ base, head });
  const outputs = {
    text: formatDiffText(diff),
    markdown: formatDiffMarkdown(diff),
    json: JSON.stringify(diff),
  };
  for (const [format, output] of Object.entries(outputs)) {
    for (const value of values) assert.ok(!output.includes(value), `${format} output prints ${value}`);
    assert.ok(!output.includes('second-line'), `${format} output prints a line of a multi-line value`);
  }
  const lines = diff.clusters[0]!.files[0]!.diff.split('\n');
  for (const want of [
    '-  token: "<redacted>"',
    '+  token: "<redacted, changed>"',
    '   user: "<redacted>"',
    '-  gone: "<redacted, removed>"',
    '+  fresh: "<redacted, added>"',
    '-  pw: "<redacted>"',
    '+  pw: "<redacted, changed>"',
  ])
    assert.ok(lines.includes(want), `the diff has the line ${JSON.stringify(want)}:\n${lines.join('\n')}`);
});

test('An added or removed Secret shows its keys, never its values.', () => {
  const added = diffRenders({ base: side({}), head });
  const removed = diffRenders({ base, head: side({}) });
  for (const diff of [added, removed]) {
    const output = formatDiffMarkdown(diff) + JSON.stringify(diff);
    for (const value of values) assert.ok(!output.includes(value), `the diff prints ${value}`);
    assert.match(output, /token: \\?"<redacted/);
  }
});

test('A Secret whose metadata alone changed shows that change in full and no value.', () => {
  const withLabel = side({
    [path]: secret({ token: 'b2xkLXRva2Vu' }).replace('  name: db\n', '  name: db\n  labels: {app: db}\n'),
  });
  const diff = diffRenders({ base: side({ [path]: secret({ token: 'b2xkLXRva2Vu' }) }), head: withLabel });
  const text = diff.clusters[0]!.files[0]!.diff;
  assert.match(text, /^\+ {2}labels:/m);
  assert.ok(!text.includes('b2xkLXRva2Vu'));
});
