// In-cluster credentials (adapters/kube/load-kube-config.ts) against a real API server: a
// ServiceAccount directory as the kubelet mounts it (token, ca.crt, namespace) named by
// $GITFLEET_SERVICE_ACCOUNT_DIR, KUBERNETES_SERVICE_HOST/PORT pointing at the test API server.
// The API server says who each request came from (SelfSubjectReview), so a rotated token is seen
// to be used by the very next request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeHttp } from '../../src/adapters/kube/kube-http.js';
import { loadKubeConfig } from '../../src/adapters/kube/load-kube-config.js';
import { ConfigError } from '../../src/core/model/config-error.js';
import { commitClusterBranch, makeBareRepo } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

const cli = join(new URL('.', import.meta.url).pathname, '../../../bin/gitfleet.js');

/** Returns the user the API server sees behind `http`'s credentials. */
async function whoAmI(http: KubeHttp): Promise<string> {
  const answer = await http.request({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    contentType: 'application/json',
  });
  assert.equal(answer.status, 201, answer.body);
  return (JSON.parse(answer.body) as { status: { userInfo: { username: string } } }).status.userInfo.username;
}

/** A ServiceAccount mount holding the test cluster's admin token and CA, and the in-cluster environment. */
function mountFor(dir: string): { env: NodeJS.ProcessEnv; tokenFile: string; home: string } {
  const kc = testKubeConfig();
  const cluster = kc.getCurrentCluster()!;
  const server = new URL(cluster.server);
  mkdirSync(join(dir, 'sa'), { recursive: true });
  mkdirSync(join(dir, 'home'), { recursive: true });
  writeFileSync(join(dir, 'sa', 'ca.crt'), Buffer.from(cluster.caData!, 'base64'));
  writeFileSync(join(dir, 'sa', 'token'), kc.getCurrentUser()!.token!);
  writeFileSync(join(dir, 'sa', 'namespace'), 'default');
  return {
    env: {
      KUBERNETES_SERVICE_HOST: server.hostname,
      KUBERNETES_SERVICE_PORT: server.port,
      GITFLEET_SERVICE_ACCOUNT_DIR: join(dir, 'sa'),
    },
    tokenFile: join(dir, 'sa', 'token'),
    home: join(dir, 'home'),
  };
}

test('in-cluster: the ServiceAccount token is used, and a rotated token file is used by the next request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-in-cluster-'));
  const admin = new KubeHttp(testKubeConfig());
  try {
    await inNamespace(testKubeConfig(), 'in-cluster', async (ns) => {
      const mount = mountFor(dir);
      const created = await admin.request({
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/serviceaccounts`,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent' } }),
        contentType: 'application/json',
      });
      assert.equal(created.status, 201, created.body);
      const requested = await admin.request({
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/serviceaccounts/agent/token`,
        body: JSON.stringify({
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 600 },
        }),
        contentType: 'application/json',
      });
      assert.equal(requested.status, 201, requested.body);
      const saToken = (JSON.parse(requested.body) as { status: { token: string } }).status.token;

      // $KUBECONFIG and ~/.kube/config absent: in-cluster.
      const credentials = await loadKubeConfig({}, mount.env, mount.home);
      assert.equal(credentials.source, `in-cluster (${join(dir, 'sa')})`);
      const http = new KubeHttp(credentials.kc, { bearerToken: credentials.bearerToken! });
      try {
        assert.equal(await whoAmI(http), 'gitfleet-admin');
        assert.equal(await whoAmI(http), 'gitfleet-admin', 'the same token while the file is unchanged');
        // The kubelet rotates a projected token by swapping the file: a new inode.
        writeFileSync(`${mount.tokenFile}.new`, saToken);
        renameSync(`${mount.tokenFile}.new`, mount.tokenFile);
        assert.equal(
          await whoAmI(http),
          `system:serviceaccount:${ns}:agent`,
          'the next request uses the new token',
        );
        // Rewritten in place, too.
        writeFileSync(mount.tokenFile, testKubeConfig().getCurrentUser()!.token!);
        assert.equal(await whoAmI(http), 'gitfleet-admin');
      } finally {
        http.close();
      }
    });
  } finally {
    admin.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('in-cluster: the agent runs a pass with no kubeconfig at all, from the Pod environment', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-in-cluster-'));
  const repo = makeBareRepo();
  try {
    const mount = mountFor(dir);
    await commitClusterBranch(repo.dir, 'member1', []);
    const env: NodeJS.ProcessEnv = { ...process.env, ...mount.env, HOME: mount.home };
    delete env['KUBECONFIG'];
    const run = spawnSync(
      process.execPath,
      [cli, 'agent', '--repo', repo.dir, '--cluster', 'member1', '--once'],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /agent member1: applied [0-9a-f]{7}: 0 objects/);
  } finally {
    repo.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without a kubeconfig and outside a Pod, the error says what is missing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-in-cluster-'));
  try {
    await assert.rejects(loadKubeConfig({}, {}, dir), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set/);
      return true;
    });
    await assert.rejects(
      loadKubeConfig(
        {},
        {
          KUBERNETES_SERVICE_HOST: '10.0.0.1',
          KUBERNETES_SERVICE_PORT: '443',
          GITFLEET_SERVICE_ACCOUNT_DIR: dir,
        },
        dir,
      ),
      new RegExp(
        `^ConfigError: ${join(dir, 'token')}: missing: the Pod's ServiceAccount is not mounted there`,
      ),
    );
    // The hub's lease client takes no $KUBECONFIG: in-cluster unless its flag names a file.
    const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
    await assert.rejects(
      loadKubeConfig({ inClusterDefault: true }, { KUBECONFIG: kubeconfig }, dir),
      /KUBERNETES_SERVICE_HOST/,
    );
    const fromFlag = await loadKubeConfig({ kubeconfig, inClusterDefault: true }, {}, dir);
    assert.equal(fromFlag.source, `kubeconfig ${kubeconfig} (context member1)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
