// Where the agent's (and the hub's lease client's) Kubernetes credentials come from, in the
// order client libraries use (docs/production.md#in-cluster-credentials):
//
//   1. --kubeconfig FILE (with --context, else its current context)
//   2. $KUBECONFIG (a list of files, merged as kubectl merges them)
//   3. ~/.kube/config
//   4. in-cluster: the Pod's ServiceAccount token and CA, and KUBERNETES_SERVICE_HOST/PORT
//
// The hub's lease client skips 2 and 3 (`--leader-elect-kubeconfig` defaults to in-cluster): a
// hub started on a laptop must not elect its leader in whatever cluster ~/.kube/config names.
//
// The ServiceAccount directory (token, ca.crt, namespace) is the one the kubelet mounts unless
// $GITFLEET_SERVICE_ACCOUNT_DIR names another (tests, sidecars). A projected token is rotated by
// the kubelet (it swaps the file): the token is read again whenever the file changed, checked
// with a stat before each request, so the request after a rotation carries the new token.
// client-go and @kubernetes/client-node re-read it once a minute instead.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isIPv6 } from 'node:net';
import { delimiter, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../../core/model/config-error.js';
import { checkKubeconfigFile } from './check-kubeconfig-file.js';

/** The kubelet's mount of the Pod's ServiceAccount. */
export const defaultServiceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Credentials for one API server. */
export interface KubeCredentials {
  kc: KubeConfig;
  /** In-cluster: the current ServiceAccount token (read again when its file changed). */
  bearerToken?: () => string;
  /** Where they came from, for messages: `kubeconfig FILE (context C)` or `in-cluster (DIR)`. */
  source: string;
}

export interface LoadKubeConfigOptions {
  kubeconfig?: string;
  context?: string;
  /** Skip $KUBECONFIG and ~/.kube/config: a flag or in-cluster only (the hub's lease client). */
  inClusterDefault?: boolean;
}

/** Returns the credentials the options and the environment name (see the header for the order). */
export async function loadKubeConfig(
  opts: LoadKubeConfigOptions,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): Promise<KubeCredentials> {
  // @kubernetes/client-node takes a second to load: only the commands that talk to a cluster pay for it.
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  let source: string;
  const homeConfig = join(home, '.kube', 'config');
  if (opts.kubeconfig) {
    source = `kubeconfig ${opts.kubeconfig}`;
    loadChecked(source, [opts.kubeconfig], () => kc.loadFromFile(opts.kubeconfig ?? ''));
  } else if (!opts.inClusterDefault && env['KUBECONFIG']) {
    source = `kubeconfig $KUBECONFIG (${env['KUBECONFIG']})`;
    const files = env['KUBECONFIG'].split(delimiter).filter((f) => f !== '');
    loadChecked(source, files, () => kc.loadFromDefault());
  } else if (!opts.inClusterDefault && existsSync(homeConfig)) {
    source = `kubeconfig ${homeConfig}`;
    loadChecked(source, [homeConfig], () => kc.loadFromFile(homeConfig));
  } else {
    if (opts.context)
      throw new ConfigError(
        'InvalidKubeconfig',
        `--context ${opts.context}: there is no kubeconfig to choose it from (in-cluster)`,
      );
    return inCluster(kc, env);
  }
  const contexts = `(contexts: ${
    kc
      .getContexts()
      .map((c) => c.name)
      .join(', ') || 'none'
  })`;
  if (opts.context) {
    if (!kc.getContextObject(opts.context))
      throw new ConfigError('InvalidKubeconfig', `${source}: no context ${opts.context} ${contexts}`);
    kc.setCurrentContext(opts.context);
  } else if (!kc.getCurrentContext() || !kc.getContextObject(kc.getCurrentContext())) {
    const current = kc.getCurrentContext();
    const what = current ? `current-context ${current} is not one of its contexts` : 'no current-context';
    throw new ConfigError('InvalidKubeconfig', `${source}: ${what} ${contexts}: pass --context`);
  }
  return { kc, source: `${source} (context ${kc.getCurrentContext()})` };
}

// Each file is checked first (checkKubeconfigFile: not found, not YAML at line N, not a mapping);
// what the library still refuses (a field of the wrong type) is said to be the kubeconfig's.
function loadChecked(source: string, files: readonly string[], load: () => void): void {
  for (const file of files) checkKubeconfigFile(file);
  try {
    load();
  } catch (e) {
    throw new ConfigError('InvalidKubeconfig', `${source}: not a valid kubeconfig: ${(e as Error).message}`);
  }
}

/** The Pod's credentials; a clear error naming what is missing outside a Pod. */
function inCluster(kc: KubeConfig, env: NodeJS.ProcessEnv): KubeCredentials {
  const dir = env['GITFLEET_SERVICE_ACCOUNT_DIR'] || defaultServiceAccountDir;
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  const source = `in-cluster (${dir})`;
  if (!host || !port) {
    throw new ConfigError(
      'InvalidKubeconfig',
      `${source}: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set, and no kubeconfig was given (--kubeconfig, $KUBECONFIG, ~/.kube/config): not in a Pod`,
    );
  }
  const tokenFile = join(dir, 'token');
  const caFile = join(dir, 'ca.crt');
  for (const file of [tokenFile, caFile]) {
    if (!existsSync(file))
      throw new ConfigError(
        'InvalidKubeconfig',
        `${file}: missing: the Pod's ServiceAccount is not mounted there (automountServiceAccountToken, or $GITFLEET_SERVICE_ACCOUNT_DIR)`,
      );
  }
  const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  kc.loadFromClusterAndUser(
    { name: 'in-cluster', server, caFile, skipTLSVerify: false },
    { name: 'service-account' },
  );
  return { kc, bearerToken: tokenReader(tokenFile), source };
}

/**
 * Returns the token in `file`, read again whenever the file changed (its inode, size or mtime:
 * the kubelet replaces a projected token by swapping a symlink). A file that cannot be read
 * keeps the last token: the API server's 401 says more than a missing header would.
 */
export function tokenReader(file: string): () => string {
  let seen = '';
  let token = '';
  return () => {
    try {
      const s = statSync(file);
      const key = `${s.ino}:${s.size}:${s.mtimeMs}`;
      if (key !== seen) {
        token = readFileSync(file, 'utf8').trim();
        seen = key;
      }
    } catch {
      // Kept: see above.
    }
    return token;
  };
}
