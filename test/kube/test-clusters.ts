// How kube tests reach the member clusters that scripts/run-tests.js started for them, and one
// throwaway namespace per test.
import { randomBytes } from 'node:crypto';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

/** Returns the value of the variable `name` that the test-cluster harness sets; throws if unset. */
function harnessEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is not set: run the kube tests through \`npm test\` (scripts/run-tests.js starts the ` +
        'test clusters and sets it), or against `npm run clusters -- up` after ' +
        '`eval "$(npm run --silent clusters -- env)"`',
    );
  }
  return value;
}

/** Returns the names (kubeconfig contexts) of the test clusters, member1 first. */
export function testClusterNames(): string[] {
  return harnessEnv('GITFLEET_TEST_CLUSTERS').split(',');
}

/** Returns a KubeConfig for the test cluster `context` (default: the first one). */
export function testKubeConfig(context?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(harnessEnv('GITFLEET_TEST_KUBECONFIG'));
  kc.setCurrentContext(context ?? testClusterNames()[0] ?? 'member1');
  return kc;
}

/** Returns true when the clusters run kube-controller-manager and kube-scheduler. */
export function clustersHaveControllers(): boolean {
  return harnessEnv('GITFLEET_TEST_CONTROLLERS') === 'true';
}

/** Returns true when kwok simulates a Node in every cluster. */
export function clustersHaveKwok(): boolean {
  return harnessEnv('GITFLEET_TEST_KWOK') === 'true';
}

/** Returns `prefix` with a random suffix, a valid DNS label. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** Creates a namespace with a random name, runs `fn` in it, and deletes it afterwards. */
export async function inNamespace<T>(
  kc: KubeConfig,
  prefix: string,
  fn: (namespace: string) => Promise<T>,
): Promise<T> {
  const core = kc.makeApiClient(CoreV1Api);
  const namespace = uniqueName(prefix);
  await core.createNamespace({
    body: { metadata: { name: namespace, labels: { 'gitfleet.test/owner': 'kube-tests' } } },
  });
  try {
    return await fn(namespace);
  } finally {
    // Not waited for: the namespace controller finalizes it in the background.
    await core.deleteNamespace({ name: namespace }).catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined) and returns it; throws `what` on timeout. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const got = await probe();
      if (got !== undefined) return got;
    } catch (err) {
      lastError = ` (last error: ${(err as Error).message})`;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${lastError}`);
    await sleep(500);
  }
}
