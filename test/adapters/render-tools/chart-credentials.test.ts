// Credentials of chart repositories and registries from the --chart-credentials file
// (docs/sources.md#credentials): a chart repository that requires basic auth (401 without, 200
// with) and a real OCI registry behind a proxy that requires it, each refused without the file's
// entry and read with it; the credentials go only to the URLs their key covers (a chart on
// another host gets none); no secret reaches an error or the render store.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import {
  parseChartCredentials,
  credentialForUrl,
  ChartCredentialsError,
} from '../../../src/adapters/render-tools/chart-credentials.js';
import { SourceRenderer } from '../../../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../../../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { publishedWebChart, remoteChartSource, writeFiles } from '../../support/chart-fixtures.js';
import {
  indexElsewhere,
  packageCharts,
  serveChartRepository,
  type TestChartRepository,
} from '../../support/chart-repository.js';
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
const skip = 'missing' in tools ? tools.missing : false;
const skipOci =
  'missing' in tools ? tools.missing : typeof registryBinary === 'string' ? false : registryBinary.missing;
const helm = 'missing' in tools ? '' : tools.helm;

const PASSWORD = 'pa55-w0rd-never-shown';
const chartFiles = publishedWebChart({ version: '0.1.0', tag: '1.27' });

const source = remoteChartSource;

// helm run through a script that writes down every command line it is given.
let helmArgv = '';
function loggingHelm(): string {
  const dir = tempDir('helm-argv');
  helmArgv = join(dir, 'argv.log');
  const script = join(dir, 'helm');
  writeFileSync(script, `#!/bin/sh\necho "$@" >> '${helmArgv}'\nexec '${helm}' "$@"\n`, { mode: 0o755 });
  return script;
}

async function render(doc: string, credentials?: Record<string, unknown>, tool = helm) {
  const dir = tempDir('cred-fleet');
  writeFiles(dir, { 'sources/web.yaml': doc });
  const loaded = loadFleet(await readDirectorySource(dir));
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  const file = join(tempDir('cred-file'), 'credentials.yaml');
  if (credentials) writeFileSync(file, JSON.stringify(credentials));
  const store = tempDir('cred-store');
  const renderer = new SourceRenderer({
    helm: tool,
    env: {},
    timeoutMs: 20_000,
    ...(credentials ? { chartCredentials: file } : {}),
  });
  renderer.persistIn(store);
  const out = await renderer.renderAll(loaded.fleet.templateSources ?? [], directorySourceTree(dir));
  const stored = readdirSync(store).map((name) => readFileSync(join(store, name), 'utf8'));
  return { out, stored };
}

/** Asserts that no text holds the password or its basic-auth encoding. */
function assertNoSecret(texts: string[]): void {
  const encoded = Buffer.from(`ci:${PASSWORD}`).toString('base64');
  for (const text of texts) {
    assert.ok(!text.includes(PASSWORD), `the password in: ${text.slice(0, 200)}`);
    assert.ok(!text.includes(encoded), `the encoded password in: ${text.slice(0, 200)}`);
  }
}

let repo: TestChartRepository;
let cdn: TestChartRepository;
after(async () => {
  await repo?.stop();
  await cdn?.stop();
  removeTempDirs();
});

test('the credentials file: URL keys cover the URLs under them (the longest wins), hosts are registries; a bad file names its key, never a value', () => {
  const entries = parseChartCredentials(
    [
      'https://charts.example.com/: {username: a, password: one}',
      'https://charts.example.com/private: {token: two}',
      'registry.example.com:5000: {username: b, password: three}',
    ].join('\n'),
    'creds.yaml',
  );
  assert.deepEqual(credentialForUrl(entries, 'https://charts.example.com/private/index.yaml'), {
    token: 'two',
  });
  assert.deepEqual(credentialForUrl(entries, 'https://charts.example.com/privateer/index.yaml'), {
    username: 'a',
    password: 'one',
  });
  assert.equal(credentialForUrl(entries, 'https://charts.example.community/index.yaml'), undefined);
  for (const [text, want] of [
    [
      'https://x.example: {username: a, password: hunter22, extra: 1}',
      /"https:\/\/x\.example": must hold username and password, or token/,
    ],
    ['registry.example.com: {token: hunter22}', /a registry logs in with username and password/],
    ['"not a key!": {token: hunter22}', /must be a chart repository URL .* or a registry host/],
    ['https://x.example: {token: "hunter22}\n', /^creds\.yaml: not YAML or JSON \(line \d+\)$/],
  ] as const) {
    assert.throws(
      () => parseChartCredentials(text, 'creds.yaml'),
      (error: unknown) =>
        error instanceof ChartCredentialsError &&
        want.test(error.message) &&
        !error.message.includes('hunter22'),
    );
  }
});

test(
  'a chart repository that requires basic auth: refused without credentials, read with them; a chart on another host gets none',
  { skip },
  async () => {
    cdn = await serveChartRepository({ dir: packageCharts({ helm, files: chartFiles, names: ['web'] }) });
    // The repository's index names the chart on the other host by its absolute URL.
    const dir = indexElsewhere({ helm, from: cdn.dir, url: cdn.url });
    repo = await serveChartRepository({ dir, auth: { username: 'ci', password: PASSWORD } });
    const doc = source([`repoURL: ${repo.url}`, 'name: web', 'version: 0.1.0']);

    const anonymous = await render(doc);
    assert.equal(
      anonymous.out.errors[0]?.message,
      `HelmSource/web: chart web 0.1.0 from ${repo.url}: index.yaml from ${repo.url}/index.yaml: answered 401: it needs credentials, and --chart-credentials has none for it`,
    );
    const wrong = await render(doc, { [repo.url]: { username: 'ci', password: `${PASSWORD}-old` } });
    assert.match(
      wrong.out.errors[0]?.message ?? '',
      /answered 401: the credentials of --chart-credentials were refused$/,
    );
    assertNoSecret([JSON.stringify(wrong.out), ...wrong.stored]);

    repo.requests.length = 0;
    cdn.requests.length = 0;
    const good = await render(doc, { [`${repo.url}/`]: { username: 'ci', password: PASSWORD } });
    assert.deepEqual(good.out.errors, []);
    assert.ok(good.out.files.length > 0);
    assert.deepEqual(
      repo.requests.map((r) => [r.path, r.authorization?.startsWith('Basic ')]),
      [['/index.yaml', true]],
    );
    assert.deepEqual(cdn.requests, [{ path: '/web-0.1.0.tgz', authorization: undefined }]);
    assertNoSecret([JSON.stringify(good.out), ...good.stored]);

    // The index moved: the repository redirects to the other host, which gets no credentials.
    repo.routes.set('/index.yaml', (_req, res) =>
      res.writeHead(302, { location: `${cdn.url}/moved/index.yaml` }).end(),
    );
    cdn.routes.set('/moved/index.yaml', (_req, res) =>
      res.writeHead(200).end(readFileSync(join(dir, 'index.yaml'))),
    );
    cdn.requests.length = 0;
    const moved = await render(doc, { [repo.url]: { username: 'ci', password: PASSWORD } });
    assert.deepEqual(moved.out.errors, []);
    assert.deepEqual(cdn.requests, [
      { path: '/moved/index.yaml', authorization: undefined },
      { path: '/web-0.1.0.tgz', authorization: undefined },
    ]);
  },
);

// A proxy in front of the registry that wants basic auth on every request, as a private registry does.
async function authProxy(upstream: string): Promise<{ host: string; seen: string[]; server: Server }> {
  const want = `Basic ${Buffer.from(`ci:${PASSWORD}`).toString('base64')}`;
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization === want ? 'auth' : 'anonymous'}`);
    if (req.headers.authorization !== want) {
      res.writeHead(401, {
        'www-authenticate': 'Basic realm="registry"',
        'docker-distribution-api-version': 'registry/2.0',
      });
      res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
      return;
    }
    const [host, port] = upstream.split(':');
    const forward = request(
      {
        host,
        port: Number(port),
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${(server.address() as { port: number }).port}`, seen, server };
}

let registry: TestRegistry | undefined;
let proxy: Awaited<ReturnType<typeof authProxy>> | undefined;
let ociDigest = '';
before(async () => {
  if (skipOci) return;
  registry = await startRegistry(registryBinary as string);
  ociDigest = pushChart({ helm, host: registry.host, files: chartFiles, name: 'web' });
  proxy = await authProxy(registry.host);
});
after(() => {
  registry?.stop();
  proxy?.server.close();
});

test(
  'an OCI registry that requires a login: refused without credentials, pulled with them, the password in no helm command line, error or store',
  { skip: skipOci },
  async () => {
    const tool = loggingHelm();
    const doc = source([`oci: oci://${proxy!.host}/charts/web`, 'version: 0.1.0', `digest: ${ociDigest}`]);
    const anonymous = await render(doc);
    assert.match(
      anonymous.out.errors[0]?.message ?? '',
      /pull: helm v4\.3\.2 failed: .*(401|unauthorized|credential not found)/i,
    );
    const wrong = await render(doc, { [proxy!.host]: { username: 'ci', password: `${PASSWORD}-old` } });
    assert.match(wrong.out.errors[0]?.message ?? '', /pull: helm v4\.3\.2 failed: /);
    assertNoSecret([JSON.stringify(wrong.out), ...wrong.stored]);
    proxy!.seen.length = 0;
    const good = await render(doc, { [proxy!.host]: { username: 'ci', password: PASSWORD } }, tool);
    assert.deepEqual(good.out.errors, []);
    assert.ok(good.out.files.length > 0);
    const argv = readFileSync(helmArgv, 'utf8');
    assert.match(argv, /^pull oci:\/\//m);
    assertNoSecret([argv]);
    assert.ok(
      proxy!.seen.some((s) => s.endsWith(' auth')),
      proxy!.seen.join('\n'),
    );
    assert.ok(
      good.stored.some((text) => text.includes(ociDigest)),
      'the chart is kept by its digest',
    );
    assertNoSecret([JSON.stringify(good.out), ...good.stored]);
  },
);
