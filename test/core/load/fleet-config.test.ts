import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { compilePathPattern, isPathSelected } from '../../../src/core/load/path-patterns.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import { clusterDoc, configMapDoc, fileOf, mustFail, mustLoad } from './documents.js';

const fleetConfig = (spec: unknown, apiVersion = 'gitfleet.io/v1alpha1') => ({
  apiVersion,
  kind: 'FleetConfig',
  metadata: { name: 'fleet' },
  spec,
});
const broken = { path: 'apps/legacy/old.yaml', content: 'apiVersion: v1\nkind: [unclosed\n' };

test('A file excluded by the FleetConfig is dropped before parsing: its YAML error does not count.', () => {
  const files = [
    fileOf('fleet.yaml', fleetConfig({ paths: { exclude: ['apps/legacy/**'] } })),
    fileOf('apps/web.yaml', configMapDoc('web')),
    broken,
  ];
  assert.equal(mustFail(files.filter((f) => f.path !== 'fleet.yaml'))[0]?.code, 'YamlSyntax');
  const fleet = mustLoad(files);
  assert.deepEqual(
    fleet.templates.map((t) => t.source.file),
    ['apps/web.yaml'],
  );
  assert.deepEqual(fleet.config.exclude, ['apps/legacy/**']);
});

test('With include given, only included paths are read; the FleetConfig file itself is always read.', () => {
  const files = [
    fileOf(
      'config/fleet.yaml',
      fleetConfig({ paths: { include: ['apps/', 'clusters'] } }),
      configMapDoc('beside-config'),
    ),
    fileOf('apps/web.yaml', configMapDoc('web')),
    fileOf('clusters/x.yaml', configMapDoc('x')),
    fileOf('clusters-old/y.yaml', configMapDoc('y')),
    fileOf('docs/example.yaml', configMapDoc('example')),
  ];
  const fleet = mustLoad(files);
  assert.deepEqual(
    fleet.templates.map((t) => t.ref.name),
    ['web', 'x', 'beside-config'],
  );
});

test('A FleetConfig is read with defaults for what it leaves out, and the given fields replace them.', () => {
  const fleet = mustLoad([
    fileOf(
      'fleet.yaml',
      fleetConfig({
        skippedNamespaces: ['kube-.*', 'istio-system'],
        skippedApis: ['example.com/v1/Widget', 'v1/Event', 'batch'],
        branchPrefix: 'fleet',
        guards: { maxDeleteFraction: 0.25 },
      }),
    ),
  ]);
  assert.deepEqual(fleet.config, {
    ...defaultFleetConfig(),
    skippedNamespaces: ['kube-.*', 'istio-system'],
    skippedApis: ['example.com/v1/Widget', 'v1/Event', 'batch'],
    branchPrefix: 'fleet/',
    guards: { maxDeleteFraction: 0.25, minObjects: 10 },
    source: { file: 'fleet.yaml', index: 0, line: 1 },
  });
});

test('Status repositories are read in order; a cluster label naming one of them loads.', () => {
  const statusRepositories = [
    { name: 'status-a', url: 'https://git.example.com/status-a.git' },
    { name: 'status-b', url: '/srv/git/status-b.git' },
  ];
  const fleet = mustLoad([
    fileOf('fleet.yaml', fleetConfig({ statusRepositories })),
    fileOf('clusters/m1.yaml', clusterDoc('m1', {}, { 'gitfleet.io/status-repository': 'status-b' })),
  ]);
  assert.deepEqual(fleet.config.statusRepositories, statusRepositories);
});

test('A cluster label naming no listed status repository stops the load, naming the cluster file, cluster and label.', () => {
  const errors = mustFail([
    fileOf('fleet.yaml', fleetConfig({ statusRepositories: [{ name: 'status-a', url: '/srv/a.git' }] })),
    fileOf('clusters/m1.yaml', clusterDoc('m1', {}, { 'gitfleet.io/status-repository': 'status-z' })),
  ]);
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0]?.code, 'InvalidCluster');
  assert.equal(errors[0]?.file, 'clusters/m1.yaml');
  assert.match(
    errors[0]?.message ?? '',
    /cluster m1: label gitfleet\.io\/status-repository="status-z" names no status repository/,
  );
});

test('Render repositories are read in order; a cluster label naming one of them loads.', () => {
  const renderRepositories = [
    { name: 'render-a', url: 'https://git.example.com/render-a.git' },
    { name: 'render-b', url: '/srv/git/render-b.git' },
  ];
  const fleet = mustLoad([
    fileOf('fleet.yaml', fleetConfig({ renderRepositories })),
    fileOf('clusters/m1.yaml', clusterDoc('m1', {}, { 'gitfleet.io/render-repository': 'render-b' })),
  ]);
  assert.deepEqual(fleet.config.renderRepositories, renderRepositories);
  assert.equal(fleet.config.statusRepositories, undefined);
});

test('A cluster label naming no listed render repository stops the load, naming the cluster file, cluster and label.', () => {
  const errors = mustFail([
    fileOf('fleet.yaml', fleetConfig({ renderRepositories: [{ name: 'render-a', url: '/srv/a.git' }] })),
    fileOf('clusters/m1.yaml', clusterDoc('m1', {}, { 'gitfleet.io/render-repository': 'render-z' })),
  ]);
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0]?.code, 'InvalidCluster');
  assert.equal(errors[0]?.file, 'clusters/m1.yaml');
  assert.match(
    errors[0]?.message ?? '',
    /cluster m1: label gitfleet\.io\/render-repository="render-z" names no render repository .*listed: render-a/,
  );
});

test('A repo without a FleetConfig gets the defaults.', () => {
  assert.deepEqual(mustLoad([fileOf('a.yaml', configMapDoc('a'))]).config, defaultFleetConfig());
});

const invalid: { name: string; given: unknown; want: RegExp }[] = [
  {
    name: 'maxDeleteFraction is between 0 and 1.',
    given: { guards: { maxDeleteFraction: 2 } },
    want: /spec\.guards\.maxDeleteFraction: 2: must be between 0 and 1/,
  },
  {
    name: 'minObjects is not negative.',
    given: { guards: { minObjects: -1 } },
    want: /spec\.guards\.minObjects: -1/,
  },
  {
    name: 'A skipped API has at most two slashes.',
    given: { skippedApis: ['a/b/c/d'] },
    want: /spec\.skippedApis\[0\]: "a\/b\/c\/d"/,
  },
  {
    name: 'A branch prefix must be a usable ref prefix.',
    given: { branchPrefix: 'git..fleet/' },
    want: /spec\.branchPrefix: "git\.\.fleet\/"/,
  },
  {
    name: 'A branch prefix with a NUL is refused, and the message shows the NUL escaped.',
    given: { branchPrefix: 'fleet\u0000x/' },
    want: /spec\.branchPrefix: "fleet\\u0000x\/": not a usable git branch prefix/,
  },
  {
    name: 'A branch prefix with a control character is refused, escaped.',
    given: { branchPrefix: 'fleet\u001b[31m/' },
    want: /spec\.branchPrefix: "fleet\\u001b\[31m\/"/,
  },
  {
    name: 'A branch prefix ending a component in ".lock" is refused.',
    given: { branchPrefix: 'gitfleet.lock/' },
    want: /spec\.branchPrefix: "gitfleet\.lock\/": not a usable git branch prefix/,
  },
  {
    name: 'A branch prefix with a DEL character is refused, escaped.',
    given: { branchPrefix: 'fleet\u007f/' },
    want: /spec\.branchPrefix: "fleet\\u007f\/": not a usable git branch prefix/,
  },
  {
    name: 'Include is a list of strings.',
    given: { paths: { include: 'apps/' } },
    want: /spec\.paths\.include: must be a list/,
  },
  {
    name: 'A status repository name is a DNS label.',
    given: { statusRepositories: [{ name: 'Status_A', url: '/srv/status-a.git' }] },
    want: /spec\.statusRepositories\[0\]\.name: "Status_A": must be a lowercase RFC 1123 label/,
  },
  {
    name: 'Status repository names are unique.',
    given: {
      statusRepositories: [
        { name: 's', url: '/srv/a.git' },
        { name: 's', url: '/srv/b.git' },
      ],
    },
    want: /spec\.statusRepositories\[1\]\.name: "s": named twice/,
  },
  {
    name: 'A status repository URL is http(s) or a local path.',
    given: { statusRepositories: [{ name: 's', url: 'ssh://git@example.com/s.git' }] },
    want: /spec\.statusRepositories\[0\]\.url: "ssh:\/\/git@example\.com\/s\.git": must be an http\(s\) URL or a local path, not ssh:/,
  },
  {
    name: 'A status repository URL holds no credentials.',
    given: { statusRepositories: [{ name: 's', url: 'https://x:secret@example.com/s.git' }] },
    want: /spec\.statusRepositories\[0\]\.url: .*must not hold credentials/,
  },
  {
    name: 'A status repository has a url.',
    given: { statusRepositories: [{ name: 's' }] },
    want: /spec\.statusRepositories\[0\]\.url: is required/,
  },
  {
    name: 'Render repository names are DNS labels.',
    given: { renderRepositories: [{ name: 'Render_A', url: '/srv/render-a.git' }] },
    want: /spec\.renderRepositories\[0\]\.name: "Render_A": must be a lowercase RFC 1123 label/,
  },
  {
    name: 'Render repository names are unique.',
    given: {
      renderRepositories: [
        { name: 'r', url: '/srv/a.git' },
        { name: 'r', url: '/srv/b.git' },
      ],
    },
    want: /spec\.renderRepositories\[1\]\.name: "r": named twice/,
  },
  {
    name: 'A render repository URL is http(s) or a local path.',
    given: { renderRepositories: [{ name: 'r', url: 'git://example.com/r.git' }] },
    want: /spec\.renderRepositories\[0\]\.url: "git:\/\/example\.com\/r\.git": must be an http\(s\) URL or a local path, not git:/,
  },
  {
    name: 'A render repository URL holds no credentials, and the message does not repeat them.',
    given: { renderRepositories: [{ name: 'r', url: 'https://x:hunter2@example.com/r.git' }] },
    want: /^(?!.*hunter2).*spec\.renderRepositories\[0\]\.url: "https:\/\/example\.com\/r\.git": must not hold credentials \(give the hub --render-token-file/,
  },
  {
    name: 'A render repository has a url.',
    given: { renderRepositories: [{ name: 'r' }] },
    want: /spec\.renderRepositories\[0\]\.url: is required/,
  },
  {
    name: 'A skipped namespace is a valid regex.',
    given: { skippedNamespaces: ['('] },
    want: /spec\.skippedNamespaces\[0\]: "\(": not a valid regular expression/,
  },
];

for (const row of invalid) {
  test(`An invalid FleetConfig is refused: ${row.name}`, () => {
    const errors = mustFail([fileOf('fleet.yaml', fleetConfig(row.given))]);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.ok(![...(errors[0]?.message ?? '')].some((c) => c < ' '), 'no control character is printed raw');
    assert.equal(errors[0]?.code, 'InvalidFleetConfig');
    assert.match(errors[0]?.message ?? '', row.want);
  });
}

test('A FleetConfig of an unknown gitfleet.io version is refused rather than read as a template.', () => {
  const errors = mustFail([fileOf('fleet.yaml', fleetConfig({}, 'gitfleet.io/v2'))]);
  assert.equal(errors[0]?.code, 'InvalidFleetConfig');
  assert.match(errors[0]?.message ?? '', /gitfleet\.io\/v2/);
});

test('A FleetConfig inside a List is refused: it must stand at the top level of a file.', () => {
  const errors = mustFail([fileOf('a.yaml', { apiVersion: 'v1', kind: 'List', items: [fleetConfig({})] })]);
  assert.equal(errors[0]?.code, 'TooManyFleetConfigs');
  assert.match(
    errors[0]?.message ?? '',
    /^items\[0\]: FleetConfig: a repo has one FleetConfig, at the top level of a file/,
  );
});

test('Two FleetConfigs in one file are refused once, naming the first.', () => {
  const result = loadFleet([fileOf('fleet.yaml', fleetConfig({}), fleetConfig({}))]);
  assert.ok(!result.ok);
  assert.deepEqual(
    result.errors.map((e) => [e.code, e.index]),
    [['TooManyFleetConfigs', 1]],
  );
});

const patterns: { name: string; given: { pattern: string; path: string }; want: boolean }[] = [
  {
    name: 'A directory prefix with a slash matches files under it.',
    given: { pattern: 'apps/', path: 'apps/a/b.yaml' },
    want: true,
  },
  {
    name: 'A directory prefix without a slash matches files under it.',
    given: { pattern: 'apps', path: 'apps/b.yaml' },
    want: true,
  },
  {
    name: 'A prefix does not match a sibling that merely starts the same.',
    given: { pattern: 'apps', path: 'apps2/b.yaml' },
    want: false,
  },
  {
    name: 'A plain file path matches that file.',
    given: { pattern: 'apps/b.yaml', path: 'apps/b.yaml' },
    want: true,
  },
  { name: 'A leading ./ is ignored.', given: { pattern: './apps/', path: 'apps/b.yaml' }, want: true },
  {
    name: 'A single star stays within one segment.',
    given: { pattern: 'apps/*.yaml', path: 'apps/x/b.yaml' },
    want: false,
  },
  {
    name: 'A single star matches within a segment.',
    given: { pattern: 'apps/*.yaml', path: 'apps/b.yaml' },
    want: true,
  },
  {
    name: 'A double star crosses segments.',
    given: { pattern: 'apps/legacy/**', path: 'apps/legacy/x/y/z.yaml' },
    want: true,
  },
  {
    name: 'A leading double star matches at the root too.',
    given: { pattern: '**/secret.yaml', path: 'secret.yaml' },
    want: true,
  },
  {
    name: 'A leading double star matches at any depth.',
    given: { pattern: '**/secret.yaml', path: 'a/b/secret.yaml' },
    want: true,
  },
  {
    name: 'A glob naming a directory matches everything under it.',
    given: { pattern: 'apps/*', path: 'apps/x/y.yaml' },
    want: true,
  },
  { name: 'A question mark is one character.', given: { pattern: 'a?.yaml', path: 'ab.yaml' }, want: true },
  { name: 'Dots in a glob are literal.', given: { pattern: '*.yaml', path: 'ayaml' }, want: false },
];

for (const row of patterns) {
  test(`Path pattern ${JSON.stringify(row.given.pattern)} on ${JSON.stringify(row.given.path)}: ${row.name}`, () => {
    assert.equal(compilePathPattern(row.given.pattern)(row.given.path), row.want);
  });
}

test('A path is selected when included (or nothing is included) and not excluded.', () => {
  const include = [compilePathPattern('apps/')];
  const exclude = [compilePathPattern('apps/legacy/')];
  assert.equal(isPathSelected('apps/a.yaml', include, exclude), true);
  assert.equal(isPathSelected('apps/legacy/a.yaml', include, exclude), false);
  assert.equal(isPathSelected('other/a.yaml', include, exclude), false);
  assert.equal(isPathSelected('other/a.yaml', [], exclude), true);
});

test('A branch prefix that puts the branches under the source branch is refused: git cannot hold both.', () => {
  const files = [fileOf('fleet.yaml', fleetConfig({ branchPrefix: 'main/' }))];
  assert.equal(mustLoad(files).config.branchPrefix, 'main/', 'without a source branch it is not checked');
  const errors = mustFail(files, { sourceBranch: 'main' });
  assert.deepEqual(
    errors.map((e) => e.message),
    [
      'FleetConfig: spec.branchPrefix: "main/": puts gitfleet\'s branches under the source branch main (refs/heads/main/…), which git cannot hold beside refs/heads/main',
    ],
  );
  assert.equal(mustLoad(files, { sourceBranch: 'develop' }).config.branchPrefix, 'main/');
  assert.equal(
    mustLoad(files, { sourceBranch: 'main/next' }).config.branchPrefix,
    'main/',
    'beside, not under',
  );
  const inside = mustFail([fileOf('fleet.yaml', fleetConfig({ branchPrefix: 'team' }))], {
    sourceBranch: 'team/clusters/c1',
  });
  assert.match(
    inside[0]?.message ?? '',
    /the source branch team\/clusters\/c1 is one of gitfleet's own branches/,
  );
});
