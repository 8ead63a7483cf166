// The source renderer against the real tools: its output equals `helm template` and `kustomize
// build` run directly on the same inputs (holdout), renders are cached by their inputs, and the
// faults (a chart that fails, a values file that is not YAML, a tool that hangs, a tool that
// writes without end) are errors naming the source, never an empty render.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree, gitSourceTree } from '../../../src/adapters/render-tools/source-tree.js';
import {
  helmSource,
  overlay,
  webChart,
  writeFiles,
  yamlDocuments as documents,
} from '../../support/chart-fixtures.js';
import { renderTools } from '../../support/render-tools.js';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

after(removeTempDirs);
const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const helmPath = 'missing' in tools ? '' : tools.helm;
const kustomizePath = 'missing' in tools ? '' : tools.kustomize;

async function fleetIn(files: Record<string, string>) {
  const dir = tempDir('sources');
  writeFiles(dir, files);
  const loaded = loadFleet(await readDirectorySource(dir));
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  return { dir, sources: loaded.fleet.templateSources ?? [] };
}

const renderer = (
  opts: { timeoutMs?: number; maxOutputBytes?: number; helm?: string; kustomize?: string } = {},
) => new SourceRenderer({ helm: helmPath, kustomize: kustomizePath, env: {}, ...opts });

test('a HelmSource renders what helm template renders on the same chart and values', { skip }, async () => {
  const values = 'replicas: 5\nconfig:\n  enabled: true';
  const { dir, sources } = await fleetIn({
    ...webChart,
    'values/prod.yaml': 'tag: "1.28"\n',
    'sources/web.yaml': helmSource({ values, valuesFiles: ['values/prod.yaml'] }),
  });
  const ours = await renderer().renderAll(sources, directorySourceTree(dir));
  assert.deepEqual(ours.errors, []);
  assert.deepEqual(
    ours.files.map((f) => f.path).sort(),
    ['configmap', 'deployment', 'service'].map((n) => `sources/web.yaml@web/templates/${n}.yaml`),
  );
  writeFileSync(join(dir, 'inline.yaml'), values + '\n');
  const direct = execFileSync(
    helmPath,
    ['template', 'web', 'charts/web', '--namespace', 'shop', '-f', 'values/prod.yaml', '-f', 'inline.yaml'],
    { cwd: dir, encoding: 'utf8', env: { HOME: dir } },
  );
  assert.deepEqual(documents(ours.files.map((f) => f.content)), documents([direct]));
  assert.match(direct, /replicas: 5/);
  assert.match(direct, /image: nginx:1.28/);
});

test('a KustomizeSource renders what kustomize build renders on the same overlay', { skip }, async () => {
  const { dir, sources } = await fleetIn(overlay);
  const ours = await renderer().renderAll(sources, directorySourceTree(dir));
  assert.deepEqual(ours.errors, []);
  const direct = execFileSync(kustomizePath, ['build', 'kustomize/prod'], {
    cwd: dir,
    encoding: 'utf8',
    env: { HOME: dir },
  });
  assert.deepEqual(documents(ours.files.map((f) => f.content)), documents([direct]));
  assert.match(direct, /name: prod-api/);
});

test('a source renders the same from a git commit as from the directory', { skip }, async () => {
  const { dir, sources } = await fleetIn({ ...webChart, ...overlay, 'sources/web.yaml': helmSource() });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fleet');
  const commit = git('rev-parse', 'HEAD');
  const fromDir = await renderer().renderAll(sources, directorySourceTree(dir));
  const fromGit = await renderer().renderAll(
    sources,
    gitSourceTree({ gitdir: join(dir, '.git'), cache: {} }, commit),
  );
  assert.equal(fromDir.files.length, 3);
  // The same files; the provenance's digests are the commit's object ids on one side, hashes of
  // the directory's files on the other.
  const { provenance: gitProvenance, ...gitRendered } = fromGit;
  const { provenance: _dirProvenance, ...dirRendered } = fromDir;
  assert.deepEqual(gitRendered, dirRendered);
  const web = gitProvenance.get('sources/web.yaml@web/templates/deployment.yaml');
  assert.equal(web?.chart?.digest, git('rev-parse', 'HEAD:charts/web'));
  assert.equal(web?.chart?.version, '0.1.0');
});

test('an unchanged source is not rendered again; a changed chart file is', { skip }, async () => {
  const { dir, sources } = await fleetIn({ ...webChart, ...overlay, 'sources/web.yaml': helmSource() });
  const r = renderer();
  const tree = directorySourceTree(dir);
  const first = await r.renderAll(sources, tree);
  assert.deepEqual([first.runs, first.reused], [2, 0]);
  const again = await r.renderAll(sources, tree);
  assert.deepEqual([again.runs, again.reused], [0, 2]);
  assert.deepEqual(again.files, first.files);
  writeFiles(dir, {
    'charts/web/values.yaml': 'replicas: 9\nimage: nginx\ntag: "1.27"\nconfig: {enabled: false}\n',
  });
  const changed = await r.renderAll(sources, tree);
  assert.deepEqual([changed.runs, changed.reused], [1, 1]);
  assert.match(changed.files.find((f) => f.path.endsWith('deployment.yaml'))!.content, /replicas: 9/);
});

test(
  'a chart that fails to render is an error of its source naming the chart file and line',
  { skip },
  async () => {
    const { dir, sources } = await fleetIn({
      ...webChart,
      'charts/web/templates/service.yaml':
        'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Values.nothing.here }}\n',
      'sources/web.yaml': helmSource(),
    });
    const out = await renderer().renderAll(sources, directorySourceTree(dir));
    assert.deepEqual(out.files, []);
    assert.equal(out.errors.length, 1);
    const [e] = out.errors;
    assert.deepEqual([e!.code, e!.file, e!.index], ['SourceRenderFailed', 'sources/web.yaml', 0]);
    assert.match(
      e!.message,
      /^HelmSource\/web: chart charts\/web: helm v4\.3\.2 failed: .*web\/templates\/service\.yaml:4:/,
    );
    assert.doesNotMatch(e!.message, /gitfleet-render-/, 'the work directory is not in the message');
  },
);

test('a values file that is not YAML is an error naming the values file', { skip }, async () => {
  const { dir, sources } = await fleetIn({
    ...webChart,
    'values/broken.yaml': 'replicas: [1\n',
    'sources/web.yaml': helmSource({ valuesFiles: ['values/broken.yaml'] }),
  });
  const out = await renderer().renderAll(sources, directorySourceTree(dir));
  assert.equal(out.errors.length, 1);
  assert.match(out.errors[0]!.message, /values\/broken\.yaml/);
});

// A stand-in tool: it says a version, then does what the test needs (hang, or write forever).
function fakeTool(dir: string, body: string): string {
  const path = join(dir, 'fake-tool');
  writeFileSync(path, `#!/bin/sh\nif [ "$1" = version ]; then echo v0.0.0-fake; exit 0; fi\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

test('a tool that hangs is stopped at the deadline and its source fails to render', async () => {
  const { dir, sources } = await fleetIn({ ...webChart, 'sources/web.yaml': helmSource() });
  const helm = fakeTool(dir, 'exec /bin/sleep 600');
  const out = await renderer({ helm, timeoutMs: 300 }).renderAll(sources, directorySourceTree(dir));
  assert.deepEqual(out.files, []);
  assert.match(
    out.errors[0]!.message,
    /^HelmSource\/web: chart charts\/web: helm v0\.0\.0-fake ran past 0\.3 s and was stopped$/,
  );
});

test('a tool that writes without end is stopped at the output limit', async () => {
  const { dir, sources } = await fleetIn(overlay);
  const kustomize = fakeTool(dir, 'exec /usr/bin/yes "kind: ConfigMap"');
  const out = await renderer({ kustomize, maxOutputBytes: 1 << 20 }).renderAll(
    sources,
    directorySourceTree(dir),
  );
  assert.deepEqual(out.files, []);
  assert.match(
    out.errors[0]!.message,
    /^KustomizeSource\/api: kustomization kustomize\/prod: kustomize v0\.0\.0-fake wrote more than 1048576 bytes and was stopped$/,
  );
});

test('a missing tool is an error of each source that needs it', async () => {
  const { dir, sources } = await fleetIn({ ...webChart, 'sources/web.yaml': helmSource() });
  const out = await new SourceRenderer({ env: { PATH: dir } }).renderAll(sources, directorySourceTree(dir));
  assert.match(
    out.errors[0]!.message,
    /^HelmSource\/web: chart charts\/web: helm: not found on PATH \(name it with --helm or GITFLEET_HELM\)$/,
  );
});

test(
  'a packaged chart (.tgz) committed in the repository renders as its directory does',
  { skip },
  async () => {
    const { dir, sources: fromDir } = await fleetIn({ ...webChart, 'sources/web.yaml': helmSource() });
    const expected = await renderer().renderAll(fromDir, directorySourceTree(dir));
    execFileSync(helmPath, ['package', 'charts/web', '--destination', 'packaged'], {
      cwd: dir,
      env: { HOME: dir },
    });
    rmSync(join(dir, 'charts'), { recursive: true });
    writeFiles(dir, {
      'sources/web.yaml': helmSource().replace('path: charts/web', 'path: packaged/web-0.1.0.tgz'),
    });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'packaged');
    const loaded = loadFleet(await readDirectorySource(dir));
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
    const packaged = loaded.fleet.templateSources ?? [];
    assert.deepEqual(packaged[0]?.inputs, ['packaged/web-0.1.0.tgz']);
    const tree = gitSourceTree({ gitdir: join(dir, '.git'), cache: {} }, git('rev-parse', 'HEAD'));
    const fromTgz = await renderer().renderAll(packaged, tree);
    assert.deepEqual(fromTgz.errors, []);
    assert.equal(fromTgz.files.length, 2);
    assert.deepEqual(fromTgz.files, expected.files);
  },
);
