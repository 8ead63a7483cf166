// A key of a Kubernetes Secret in the hub's own namespace (a receiver's `secretRef`), read with the
// Pod's ServiceAccount: the hub's deploy manifests grant it `get` on Secrets of its namespace.
import type { KubeHttp } from '../kube/kube-http.js';
import { NotificationSecretError } from './notification-secret-error.js';

/** Returns a reader of `<name>` `<key>` in `namespace`: the decoded value, undefined when the Secret or key is not there. */
export function kubeSecretKey(
  http: KubeHttp,
  namespace: string,
): (name: string, key: string) => Promise<string | undefined> {
  return async (name, key) => {
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`;
    const answer = await http.request({ method: 'GET', path, timeoutMs: 10_000 });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200)
      throw new NotificationSecretError(
        'NotificationSecretUnusable',
        `Secret ${namespace}/${name}: the API server answered ${answer.status}`,
      );
    const data = (JSON.parse(answer.body) as { data?: Record<string, unknown> }).data ?? {};
    const value = data[key];
    return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
  };
}
