// HelmSources naming a chart of a classic chart repository (index.yaml + .tgz over HTTP), served
// on 127.0.0.1 from charts packaged and indexed by the real helm: the chart is fetched once,
// checked against the index's digest and the pinned one, kept by digest, rendered as
// `helm template --repo` renders it, and rendered offline after (the server stopped), in this
// process and in the next one that shares the store. Each fault of the repository (it hangs,
// serves garbage or a truncated chart, lacks the version, answers 404, sends an index without
// end) is an error naming the source document, and the rest of the pass goes on.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../../../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import {
  helmSource,
  publishedWebChart,
  remoteChartSource,
  webChart,
  writeFiles,
  yamlDocuments as documents,
} from '../../support/chart-fixtures.js';
import {
  packageCharts,
  serveChartRepository,
  type TestChartRepository,
} from '../../support/chart-repository.js';
import { renderTools } from '../../support/render-tools.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

const tools = renderTools();
const skip = 'missing' in tools ? tools.missing : false;
const helm = 'missing' in tools ? '' : tools.helm;

const repoSource = remoteChartSource;

async function sourcesOf(files: Record<string, string>) {
  const dir = tempDir('repo-fleet');
  writeFiles(dir, files);
  const loaded = loadFleet(await readDirectorySource(dir));
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  return { dir, sources: loaded.fleet.templateSources ?? [] };
}

let served: TestChartRepository;
let tgzDigest = '';
before(async () => {
  if (skip) return;
  const dir = packageCharts({
    helm,
    files: publishedWebChart({ version: '0.1.0', tag: '1.28' }),
    names: ['web'],
  });
  served = await serveChartRepository({ dir });
  tgzDigest = `sha256:${createHash('sha256')
    .update(readFileSync(join(dir, 'web-0.1.0.tgz')))
    .digest('hex')}`;
});
after(async () => {
  await served?.stop();
  removeTempDirs();
});

const pinned = (opts: { version?: string; digest?: string; url?: string } = {}) =>
  repoSource([
    `repoURL: ${opts.url ?? served.url}`,
    'name: web',
    `version: ${opts.version ?? '0.1.0'}`,
    ...(opts.digest !== undefined ? [`digest: ${opts.digest}`] : []),
  ]);

test(
  'a chart of a chart repository renders what helm template --repo renders, is fetched once, then renders offline from the store',
  { skip },
  async () => {
    const { dir, sources } = await sourcesOf({ 'sources/web.yaml': pinned({ digest: tgzDigest }) });
    const store = tempDir('repo-store');
    const first = new SourceRenderer({ helm, env: {} });
    first.persistIn(store);
    served.requests.length = 0;
    const ours = await first.renderAll(sources, directorySourceTree(dir));
    assert.deepEqual(ours.errors, []);
    assert.equal(first.charts.pulls, 1);
    assert.deepEqual(
      served.requests.map((r) => r.path),
      ['/index.yaml', '/web-0.1.0.tgz'],
    );
    // Run asynchronously: the repository is served by this process.
    const { stdout: direct } = await promisify(execFile)(
      helm,
      [
        'template',
        'web',
        'web',
        '--repo',
        served.url,
        '--version',
        '0.1.0',
        '--namespace',
        'shop',
        '--set',
        'replicas=3',
      ],
      { cwd: dir, encoding: 'utf8', env: { HOME: dir } },
    );
    assert.deepEqual(documents(ours.files.map((f) => f.content)), documents([direct]));
    assert.match(direct, /image: nginx:1\.28/);
    served.requests.length = 2; // helm's own two requests are not ours
    // The next pass: nothing fetched, nothing rendered.
    const again = await first.renderAll(sources, directorySourceTree(dir));
    assert.equal(again.runs, 0);
    assert.equal(served.requests.length, 2);
    // A hub restarted on the same store, with the repository unreachable: the chart and its render are kept.
    const next = new SourceRenderer({ helm, env: {} });
    next.persistIn(store);
    const offline = await sourcesOf({
      'sources/web.yaml': pinned({ digest: tgzDigest, url: 'http://127.0.0.1:9' }),
    });
    const restarted = await next.renderAll(
      (await sourcesOf({ 'sources/web.yaml': pinned({ digest: tgzDigest }) })).sources,
      directorySourceTree(dir),
    );
    assert.deepEqual(restarted.errors, []);
    assert.equal(next.charts.pulls, 0);
    assert.equal(served.requests.length, 2);
    assert.deepEqual(restarted.files, ours.files);
    // Pinned by digest, the chart is found by it even under another repository URL that does not answer.
    const moved = await next.renderAll(offline.sources, directorySourceTree(offline.dir));
    assert.deepEqual(moved.errors, []);
    assert.equal(next.charts.pulls, 0);
  },
);

test(
  'a chart pinned by version only is fetched once and rendered offline after, by the digest the index gave',
  { skip },
  async () => {
    const { dir, sources } = await sourcesOf({ 'sources/web.yaml': pinned() });
    const renderer = new SourceRenderer({ helm, env: {} });
    renderer.persistIn(tempDir('repo-store'));
    served.requests.length = 0;
    const first = await renderer.renderAll(sources, directorySourceTree(dir));
    assert.deepEqual(first.errors, []);
    for (let pass = 0; pass < 2; pass++) {
      const next = await renderer.renderAll(sources, directorySourceTree(dir));
      assert.deepEqual(next.errors, []);
      assert.deepEqual(next.files, first.files);
      assert.equal(next.runs, 0);
    }
    assert.equal(renderer.charts.pulls, 1);
    assert.equal(served.requests.length, 2, 'index.yaml and the chart, once');
  },
);

test('two releases of one chart in a pass read the index and the chart once', { skip }, async () => {
  const other = pinned()
    .replace('  name: web\n', '  name: web2\n')
    .replace('releaseName: web', 'releaseName: web2');
  const { dir, sources } = await sourcesOf({ 'sources/web.yaml': pinned(), 'sources/web2.yaml': other });
  served.requests.length = 0;
  const out = await new SourceRenderer({ helm, env: {} }).renderAll(sources, directorySourceTree(dir));
  assert.deepEqual(out.errors, []);
  assert.equal(out.runs, 2);
  assert.deepEqual(
    served.requests.map((r) => r.path),
    ['/index.yaml', '/web-0.1.0.tgz'],
  );
});

/** Renders one source of the repository beside an in-repository chart; returns the repository source's error. */
async function faultOf(chart: string, timeoutMs = 60_000): Promise<string> {
  const { dir, sources } = await sourcesOf({
    'sources/web.yaml': chart,
    ...webChart,
    'sources/local.yaml': helmSource({ name: 'local' }),
  });
  const out = await new SourceRenderer({ helm, env: {}, timeoutMs }).renderAll(
    sources,
    directorySourceTree(dir),
  );
  assert.equal(out.errors.length, 1, JSON.stringify(out.errors));
  const [error] = out.errors;
  assert.equal(error?.code, 'SourceRenderFailed');
  assert.equal(error?.file, 'sources/web.yaml');
  assert.ok(
    out.files.length > 0 && out.files.every((f) => f.path.startsWith('sources/local.yaml@')),
    'the other source renders; nothing of the failed one does',
  );
  return error!.message;
}

test('a version the index does not list is an error naming the versions it does', { skip }, async () => {
  const message = await faultOf(pinned({ version: '0.9.9' }));
  assert.equal(
    message,
    `HelmSource/web: chart web 0.9.9 from ${served.url}: index.yaml lists no version 0.9.9 of web (it lists 0.1.0)`,
  );
});

test(
  'a pinned digest the index does not give is refused, naming both digests; nothing is fetched',
  { skip },
  async () => {
    const wrong = `sha256:${'0'.repeat(64)}`;
    served.requests.length = 0;
    const message = await faultOf(pinned({ digest: wrong }));
    assert.equal(
      message,
      `HelmSource/web: chart web 0.1.0 from ${served.url}: index.yaml gives ${tgzDigest} for web 0.1.0, not the pinned ${wrong}: nothing is rendered from it`,
    );
    assert.deepEqual(
      served.requests.map((r) => r.path),
      ['/index.yaml'],
    );
  },
);

test('a truncated chart is refused by its digest, or as an answer cut off', { skip }, async () => {
  const tgz = readFileSync(join(served.dir, 'web-0.1.0.tgz'));
  const half = tgz.subarray(0, tgz.length >> 1);
  const halfDigest = `sha256:${createHash('sha256').update(half).digest('hex')}`;
  served.routes.set('/web-0.1.0.tgz', (_req, res) => res.writeHead(200).end(half));
  try {
    assert.equal(
      await faultOf(pinned()),
      `HelmSource/web: chart web 0.1.0 from ${served.url}: web-0.1.0.tgz from ${served.url}/web-0.1.0.tgz has ${halfDigest}, not the index's ${tgzDigest}: nothing is rendered from it`,
    );
    // The length announced, half of it sent, the connection closed.
    served.routes.set('/web-0.1.0.tgz', (_req, res) => {
      res.writeHead(200, { 'content-length': tgz.length });
      res.write(half, () => res.destroy());
    });
    assert.match(
      await faultOf(pinned()),
      /: web-0\.1\.0\.tgz from http:\/\/127\.0\.0\.1:\d+\/web-0\.1\.0\.tgz: the request failed: the connection closed before the whole answer /,
    );
  } finally {
    served.routes.clear();
  }
});

test(
  'garbage: an index that is not YAML, and a chart whose digest matches but is no chart',
  { skip },
  async () => {
    served.routes.set('/index.yaml', (_req, res) =>
      res.writeHead(200).end('entries: {web: [\n\t%%% not yaml'),
    );
    try {
      assert.match(
        await faultOf(pinned()),
        /: index\.yaml from http:\/\/127\.0\.0\.1:\d+\/index\.yaml is not YAML \(line \d+\)$/,
      );
      served.routes.set('/index.yaml', (_req, res) => res.writeHead(200).end('apiVersion: v1\nfoo: bar\n'));
      assert.match(
        await faultOf(pinned()),
        /index\.yaml is not a chart repository index \(no entries map\)$/,
      );
      const garbage = Buffer.from('this is not a gzip file\n');
      const digest = createHash('sha256').update(garbage).digest('hex');
      served.routes.set('/index.yaml', (_req, res) =>
        res
          .writeHead(200)
          .end(
            `apiVersion: v1\nentries:\n  web:\n    - version: 0.1.0\n      digest: ${digest}\n      urls: [junk.tgz]\n`,
          ),
      );
      served.routes.set('/junk.tgz', (_req, res) => res.writeHead(200).end(garbage));
      assert.match(await faultOf(pinned()), /: helm v4\.3\.2 failed: .*(gzip|header)/);
    } finally {
      served.routes.clear();
    }
  },
);

test('a 404, for the index and for the chart, is an error naming the URL', { skip }, async () => {
  const empty = await serveChartRepository({ dir: tempDir('empty-repo') });
  try {
    assert.equal(
      await faultOf(pinned({ url: empty.url })),
      `HelmSource/web: chart web 0.1.0 from ${empty.url}: index.yaml from ${empty.url}/index.yaml: answered 404: not found`,
    );
    writeFileSync(join(empty.dir, 'index.yaml'), readFileSync(join(served.dir, 'index.yaml')));
    assert.match(
      await faultOf(pinned({ url: empty.url })),
      /: web-0\.1\.0\.tgz from http:\/\/127\.0\.0\.1:\d+\/web-0\.1\.0\.tgz: answered 404: not found$/,
    );
  } finally {
    await empty.stop();
  }
});

test('an index far too large is cut off at the cap, the connection dropped', { skip }, async () => {
  let sent = 0;
  served.routes.set('/index.yaml', (_req, res) => {
    res.writeHead(200);
    const chunk = Buffer.alloc(1024 * 1024, '#');
    const more = () => {
      while (!res.destroyed && res.write(chunk)) sent += chunk.length;
      if (!res.destroyed) res.once('drain', more);
    };
    res.on('close', () => undefined);
    more();
  });
  try {
    assert.match(
      await faultOf(pinned()),
      /: index\.yaml from http:\/\/127\.0\.0\.1:\d+\/index\.yaml: more than the 33554432 bytes read$/,
    );
    assert.ok(sent < 256 * 1024 * 1024, 'the reader stopped long before the server would');
  } finally {
    served.routes.clear();
  }
});

test(
  'a repository that never answers is stopped at the render deadline; the pass goes on',
  { skip },
  async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      assert.equal(
        await faultOf(pinned({ url }), 2000),
        `HelmSource/web: chart web 0.1.0 from ${url}: index.yaml from ${url}/index.yaml: no whole answer within 2 s (--render-timeout): stopped`,
      );
    } finally {
      for (const s of held) s.destroy();
      silent.close();
    }
  },
);
