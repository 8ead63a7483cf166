// HelmSources naming a chart in an OCI registry, against a real registry on 127.0.0.1 and the
// real helm: the chart is pulled once (by helm), kept by its digest, rendered as `helm template`
// renders the pushed chart, and rendered offline after (the registry stopped), in this process
// and in the next one that shares the store; a digest that is not what the registry serves, or
// a registry that never answers, is an error naming the source document, and nothing renders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../../../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import {
  publishedWebChart,
  remoteChartSource,
  writeFiles,
  yamlDocuments as documents,
} from '../../support/chart-fixtures.js';
import {
  ociRegistryBinary,
  pushChart,
  startRegistry,
  type TestRegistry,
} from '../../support/oci-registry.js';
import { renderTools } from '../../support/render-tools.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

const tools = renderTools();
const registryBinary = 'missing' in tools ? tools : ociRegistryBinary();
const skip =
  'missing' in tools ? tools.missing : typeof registryBinary === 'string' ? false : registryBinary.missing;
const helm = 'missing' in tools ? '' : tools.helm;

const chartFiles = publishedWebChart;
const ociSource = remoteChartSource;

async function sourcesOf(doc: string) {
  const dir = tempDir('oci-fleet');
  writeFiles(dir, { 'sources/web.yaml': doc });
  const loaded = loadFleet(await readDirectorySource(dir));
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  return { dir, sources: loaded.fleet.templateSources ?? [] };
}

let registry: TestRegistry;
let digest = '';
// Starts the registry with the web chart 0.1.0 pushed (again, after a test stopped it).
async function startWithChart(): Promise<void> {
  registry = await startRegistry(registryBinary as string);
  digest = pushChart({
    helm,
    host: registry.host,
    files: chartFiles({ version: '0.1.0', tag: '1.28' }),
    name: 'web',
  });
}
before(async () => {
  if (!skip) await startWithChart();
});
after(() => {
  registry?.stop();
  removeTempDirs();
});

test(
  'an OCI chart pinned by version and digest renders what helm template renders on the pushed chart, then offline from the store',
  { skip },
  async () => {
    const { dir, sources } = await sourcesOf(
      ociSource([`oci: oci://${registry.host}/charts/web`, 'version: 0.1.0', `digest: ${digest}`]),
    );
    const store = tempDir('oci-store');
    const first = new SourceRenderer({ helm, env: {} });
    first.persistIn(store);
    const ours = await first.renderAll(sources, directorySourceTree(dir));
    assert.deepEqual(ours.errors, []);
    assert.equal(first.charts.pulls, 1);
    assert.deepEqual(
      ours.files.map((f) => f.path).sort(),
      ['deployment', 'service'].map((n) => `sources/web.yaml@web/templates/${n}.yaml`),
    );
    const direct = execFileSync(
      helm,
      [
        'template',
        'web',
        `oci://${registry.host}/charts/web`,
        '--version',
        '0.1.0',
        '--plain-http',
        '--namespace',
        'shop',
        '--set',
        'replicas=3',
      ],
      { cwd: dir, encoding: 'utf8', env: { HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    assert.deepEqual(documents(ours.files.map((f) => f.content)), documents([direct]));
    assert.match(direct, /image: nginx:1\.28/);

    registry.stop();
    // A hub restarted on the same store, the registry gone: the chart and its render are kept.
    const next = new SourceRenderer({ helm, env: {} });
    next.persistIn(store);
    const again = await next.renderAll(sources, directorySourceTree(dir));
    assert.deepEqual(again.errors, []);
    assert.equal(next.charts.pulls, 0);
    assert.deepEqual(again.files, ours.files);
    // A new values change renders again (helm runs), still without the registry.
    const changed = await sourcesOf(
      ociSource([`oci: oci://${registry.host}/charts/web`, 'version: 0.1.0', `digest: ${digest}`]).replace(
        'replicas: 3',
        'replicas: 4',
      ),
    );
    const third = await next.renderAll(changed.sources, directorySourceTree(changed.dir));
    assert.deepEqual(third.errors, []);
    assert.equal(third.runs, 1);
    assert.equal(next.charts.pulls, 0);
    assert.match(third.files.map((f) => f.content).join('\n'), /replicas: 4/);
    await startWithChart();
  },
);

test(
  'an OCI chart pinned by version only is pulled once and rendered offline after, by the digest the registry gave',
  { skip },
  async () => {
    const { dir, sources } = await sourcesOf(
      ociSource([`oci: oci://${registry.host}/charts/web`, 'version: 0.1.0']),
    );
    const renderer = new SourceRenderer({ helm, env: {} });
    renderer.persistIn(tempDir('oci-store'));
    const first = await renderer.renderAll(sources, directorySourceTree(dir));
    assert.deepEqual(first.errors, []);
    registry.stop();
    const second = await renderer.renderAll(sources, directorySourceTree(dir));
    assert.deepEqual(second.errors, []);
    assert.equal(renderer.charts.pulls, 1);
    assert.equal(second.runs, 0);
    assert.deepEqual(second.files, first.files);
    await startWithChart();
  },
);

test(
  'a version pushed again with other content is refused against the pinned digest, naming the file and release; nothing renders',
  { skip },
  async () => {
    const pinned = digest;
    const repushed = pushChart({
      helm,
      host: registry.host,
      files: chartFiles({ version: '0.1.0', tag: '6.6.6' }),
      name: 'web',
    });
    assert.notEqual(repushed, pinned);
    for (const chart of [
      [`oci: oci://${registry.host}/charts/web`, 'version: 0.1.0', `digest: ${pinned}`],
      [`oci: oci://${registry.host}/charts/web`, `digest: sha256:${'0'.repeat(64)}`],
    ]) {
      const { dir, sources } = await sourcesOf(ociSource(chart));
      const out = await new SourceRenderer({ helm, env: {} }).renderAll(sources, directorySourceTree(dir));
      assert.deepEqual(out.files, []);
      assert.equal(out.errors.length, 1);
      const [error] = out.errors;
      assert.equal(error?.code, 'SourceRenderFailed');
      assert.equal(error?.file, 'sources/web.yaml');
      assert.match(error!.message, /^HelmSource\/web: chart oci:\/\/127\.0\.0\.1:\d+\/charts\/web/);
      if (chart.length === 3)
        assert.ok(
          error!.message.includes(
            `the registry serves ${repushed} for oci://${registry.host}/charts/web:0.1.0, not the pinned ${pinned}`,
          ),
          error!.message,
        );
      else assert.match(error!.message, /pull: helm v4\.3\.2 failed: .*not found/);
    }
  },
);

test(
  'a registry that never answers stops the pull at the render deadline, naming the source',
  { skip },
  async () => {
    const held: import('node:net').Socket[] = [];
    const silent: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const { dir, sources } = await sourcesOf(
        ociSource([`oci: oci://127.0.0.1:${port}/charts/web`, 'version: 0.1.0']),
      );
      const out = await new SourceRenderer({ helm, env: {}, timeoutMs: 2000 }).renderAll(
        sources,
        directorySourceTree(dir),
      );
      assert.deepEqual(out.files, []);
      assert.match(
        out.errors[0]?.message ?? '',
        /^HelmSource\/web: chart oci:\/\/127\.0\.0\.1:\d+\/charts\/web:0\.1\.0: pull: helm v4\.3\.2 ran past 2 s and was stopped/,
      );
    } finally {
      for (const s of held) s.destroy();
      silent.close();
    }
  },
);
