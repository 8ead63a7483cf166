import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatLoadError,
  loadFleet,
  type LoadError,
  type LoadOptions,
} from '../../../src/core/load/load-fleet.js';
import type { SourceFile } from '../../../src/core/load/source-file.js';
import { clusterDoc, configMapDoc, fileOf, mustFail, policyDoc, yamlOf } from './documents.js';

const cm = (name: string) => yamlOf(configMapDoc(name));
const fleetConfig = (spec: unknown) => ({
  apiVersion: 'gitfleet.io/v1alpha1',
  kind: 'FleetConfig',
  metadata: { name: 'fleet' },
  spec,
});

// Nine levels of nine aliases: 9^9 (387 million) leaves from a few hundred bytes.
const billionLaughs = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata: {name: lol}',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((l, i) => {
    const prev = 'abcdefgh'[i];
    return `${l}: &${l} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`;
  }),
].join('\n');

interface Row {
  name: string;
  given: { files: SourceFile[]; options?: LoadOptions };
  want: Omit<LoadError, 'message'> & { message: RegExp };
}

const rows: Row[] = [
  {
    name: 'A YAML syntax error names the file, the document it is in, and the line and column of the parser mark.',
    given: {
      files: [
        {
          path: 'apps/a.yaml',
          content: `${cm('a')}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n   data: x\n`,
        },
      ],
    },
    want: {
      code: 'YamlSyntax',
      file: 'apps/a.yaml',
      index: 1,
      line: 7,
      column: 8,
      message: /bad indentation/,
    },
  },
  {
    name: 'A repeated key in a mapping is a DuplicateKey error at the repeated key.',
    given: {
      files: [
        {
          path: 'apps/dup.yaml',
          content: `# comment\n---\n${cm('a')}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  name: c\n`,
        },
      ],
    },
    want: {
      code: 'DuplicateKey',
      file: 'apps/dup.yaml',
      index: 1,
      line: 9,
      column: 3,
      message: /duplicate key "name"/,
    },
  },
  {
    name: 'A document without kind is a MissingField error at the line the document starts.',
    given: { files: [fileOf('a.yaml', configMapDoc('a'), { apiVersion: 'v1', metadata: { name: 'x' } })] },
    want: { code: 'MissingField', file: 'a.yaml', index: 1, line: 3, message: /kind: is required/ },
  },
  {
    name: 'A document without apiVersion is a MissingField error.',
    given: { files: [fileOf('a.yaml', { kind: 'ConfigMap', metadata: { name: 'x' } })] },
    want: {
      code: 'MissingField',
      file: 'a.yaml',
      index: 0,
      line: 1,
      message: /ConfigMap\/x: apiVersion: is required/,
    },
  },
  {
    name: 'A document without metadata.name is a MissingField error.',
    given: {
      files: [fileOf('a.yaml', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'x' } })],
    },
    want: { code: 'MissingField', file: 'a.yaml', index: 0, line: 1, message: /metadata\.name: is required/ },
  },
  {
    name: 'A document that is a plain scalar is a MissingField error.',
    given: { files: [{ path: 'a.yaml', content: 'just some text\n' }] },
    want: { code: 'MissingField', file: 'a.yaml', index: 0, line: 1, message: /not a mapping/ },
  },
  {
    name: 'A name with capital letters is an InvalidName error.',
    given: { files: [fileOf('a.yaml', configMapDoc('Web'))] },
    want: {
      code: 'InvalidName',
      file: 'a.yaml',
      index: 0,
      line: 1,
      message: /ConfigMap\/Web: metadata\.name "Web"/,
    },
  },
  {
    name: 'Two templates with the same identity in two files are a DuplicateIdentity error naming both places.',
    given: {
      files: [fileOf('b.yaml', configMapDoc('a')), fileOf('a.yaml', configMapDoc('x'), configMapDoc('a'))],
    },
    want: {
      code: 'DuplicateIdentity',
      file: 'b.yaml',
      index: 0,
      line: 1,
      message: /ConfigMap\/default\/a: defined twice, at a\.yaml#1 \(line 3\) and at b\.yaml#0 \(line 1\)/,
    },
  },
  {
    name: 'A policy that fails validation is an InvalidPolicy error naming the policy and the field.',
    given: {
      files: [fileOf('p.yaml', policyDoc('PropagationPolicy', 'web', { resourceSelectors: [] }, 'shop'))],
    },
    want: {
      code: 'InvalidPolicy',
      file: 'p.yaml',
      index: 0,
      line: 1,
      message: /^PropagationPolicy\/shop\/web: spec\.resourceSelectors: is required/,
    },
  },
  {
    name: 'A cluster that fails validation is an InvalidCluster error naming the field.',
    given: { files: [fileOf('c.yaml', clusterDoc('member1', { syncMode: 'Sideways' }))] },
    want: {
      code: 'InvalidCluster',
      file: 'c.yaml',
      index: 0,
      line: 1,
      message: /^Cluster\/member1: spec\.syncMode: unsupported value/,
    },
  },
  {
    name: 'A FleetConfig with a regex that does not compile is an InvalidFleetConfig error.',
    given: { files: [fileOf('fleet.yaml', fleetConfig({ skippedNamespaces: ['kube-(.*'] }))] },
    want: {
      code: 'InvalidFleetConfig',
      file: 'fleet.yaml',
      index: 0,
      line: 1,
      message: /spec\.skippedNamespaces\[0\]: "kube-\(\.\*": not a valid regular expression/,
    },
  },
  {
    name: 'A document whose aliases expand past the limit (billion laughs) is an AliasExpansion error.',
    given: { files: [{ path: 'lol.yaml', content: `${cm('ok')}\n---\n${billionLaughs}\n` }] },
    want: { code: 'AliasExpansion', file: 'lol.yaml', index: 1, line: 3, message: /more than 200000 nodes/ },
  },
  {
    name: 'A file larger than maxFileBytes is a FileTooLarge error and is not parsed.',
    given: {
      files: [{ path: 'big.yaml', content: `${cm('a')}\n: : not yaml [\n` }],
      options: { maxFileBytes: 64 },
    },
    want: { code: 'FileTooLarge', file: 'big.yaml', message: /larger than 64 bytes/ },
  },
  {
    name: 'A second FleetConfig is a TooManyFleetConfigs error naming the first.',
    given: {
      files: [fileOf('a.yaml', fleetConfig({})), fileOf('b/b.yaml', configMapDoc('x'), fleetConfig({}))],
    },
    want: {
      code: 'TooManyFleetConfigs',
      file: 'b/b.yaml',
      index: 1,
      line: 3,
      message: /another is at a\.yaml#0 \(line 1\)/,
    },
  },
];

for (const row of rows) {
  test(row.name, () => {
    const errors = mustFail(row.given.files, row.given.options);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    const [error] = errors as [LoadError];
    const { message, ...where } = error;
    const { message: pattern, ...wantWhere } = row.want;
    assert.deepEqual(where, wantWhere);
    assert.match(message, pattern);
  });
}

test('Errors of every file are collected, in path order, and no fleet is returned.', () => {
  const result = loadFleet([
    fileOf('z.yaml', configMapDoc('BAD')),
    { path: 'm.yaml', content: 'a: [\n' },
    fileOf('a.yaml', policyDoc('ClusterPropagationPolicy', 'c', {})),
    fileOf('ok.yaml', configMapDoc('fine')),
  ]);
  assert.equal(result.ok, false);
  assert.ok(!result.ok);
  assert.deepEqual(
    result.errors.map((e) => [e.file, e.code]),
    [
      ['a.yaml', 'InvalidPolicy'],
      ['m.yaml', 'YamlSyntax'],
      ['z.yaml', 'InvalidName'],
    ],
  );
  assert.equal('fleet' in result, false);
});

test('A document that only refers to an alias a few times is loaded, with the shared nodes copied apart.', () => {
  const content = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: shared',
    '  labels: &l {app: web}',
    '  annotations: *l',
    'data:',
    '  base: &b {k: v}',
    '  copy:',
    '    <<: *b',
    '    extra: x',
  ].join('\n');
  const result = loadFleet([{ path: 'a.yaml', content }]);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  const meta = result.fleet.templates[0]!.object.metadata;
  assert.deepEqual(meta.annotations, { app: 'web' });
  assert.notEqual(meta.labels, meta.annotations, 'aliased maps must be separate objects');
  meta.labels!['app'] = 'changed';
  assert.equal(meta.annotations!['app'], 'web');
  assert.deepEqual(result.fleet.templates[0]!.object['data'], {
    base: { k: 'v' },
    copy: { k: 'v', extra: 'x' },
  });
});

test('maxExpandedNodes is configurable: a small limit refuses a modest alias fan-out.', () => {
  const content =
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\na: &a [1,2,3,4,5,6,7,8]\nb: [*a,*a,*a,*a]\n';
  assert.equal(loadFleet([{ path: 'a.yaml', content }]).ok, true);
  const errors = mustFail([{ path: 'a.yaml', content }], { maxExpandedNodes: 30 });
  assert.equal(errors[0]?.code, 'AliasExpansion');
});

test('formatLoadError puts the place first: file#index:line:column: message.', () => {
  const rows: { given: LoadError; want: string }[] = [
    {
      given: {
        code: 'YamlSyntax',
        file: 'a.yaml',
        index: 2,
        line: 14,
        column: 5,
        message: 'invalid YAML: x',
      },
      want: 'a.yaml#2:14:5: invalid YAML: x',
    },
    {
      given: {
        code: 'InvalidPolicy',
        file: 'p.yaml',
        index: 0,
        line: 3,
        message: 'PropagationPolicy/d/p: spec: bad',
      },
      want: 'p.yaml#0:3: PropagationPolicy/d/p: spec: bad',
    },
    { given: { code: 'FileTooLarge', file: 'big.yaml', message: 'too large' }, want: 'big.yaml: too large' },
  ];
  for (const row of rows) assert.equal(formatLoadError(row.given), row.want);
});

test('A few hundred bytes that alias one long string a hundred thousand times are refused, naming file, document and line.', () => {
  const content = aliasBomb({ stringBytes: 700, levels: 5 });
  assert.ok(content.length < 1200, `the file is small (${content.length} bytes)`);
  const errors = mustFail([{ path: 'bomb.yaml', content }]);
  assert.deepEqual(
    errors.map((e) => [e.code, formatLoadError(e)]),
    [
      [
        'AliasExpansion',
        'bomb.yaml#0:3: document expands to more than 16777216 bytes through aliases; refusing it',
      ],
    ],
  );
});

test('maxExpandedBytes is configurable, and the budget is shared by the documents of a file.', () => {
  const doc =
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: NAME}\ns: &s "' +
    'x'.repeat(100) +
    '"\nl: [*s,*s,*s]\n';
  const content = [doc.replace('NAME', 'a'), doc.replace('NAME', 'b')].join('---\n');
  assert.equal(loadFleet([{ path: 'a.yaml', content }], { maxExpandedBytes: 1000 }).ok, true);
  const errors = mustFail([{ path: 'a.yaml', content }], { maxExpandedBytes: 600 });
  assert.deepEqual(
    errors.map((e) => [e.code, e.index]),
    [['AliasExpansion', 1]],
  );
});

/** A small document whose `bomb` field aliases one string 10^levels times through nested lists. */
function aliasBomb(opts: { stringBytes: number; levels: number }): string {
  const lines = [
    '# an alias bomb',
    '---',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: bomb, namespace: default}',
    `s: &l0 "${'x'.repeat(opts.stringBytes)}"`,
  ];
  for (let i = 1; i <= opts.levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(',')}]`,
    );
  return lines.join('\n') + '\n';
}
