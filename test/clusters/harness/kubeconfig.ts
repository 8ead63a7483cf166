// kubeconfig files: one context per member cluster, named after the cluster, each with its own
// admin token and the cluster's self-signed serving certificate as the trusted CA.
import { writeFileSync } from 'node:fs';
import yaml from 'js-yaml';

/** One cluster's entry in a kubeconfig. */
export interface KubeconfigEntry {
  name: string;
  server: string;
  token: string;
  /** PEM to trust; without it the entry skips TLS verification. */
  caPem?: string;
}

/** Returns the kubeconfig YAML for `entries`, the first one being the current context. */
export function renderKubeconfig(entries: KubeconfigEntry[]): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    'current-context': entries[0]?.name ?? '',
    clusters: entries.map((e) => ({
      name: e.name,
      cluster:
        e.caPem === undefined
          ? { server: e.server, 'insecure-skip-tls-verify': true }
          : { server: e.server, 'certificate-authority-data': Buffer.from(e.caPem).toString('base64') },
    })),
    users: entries.map((e) => ({ name: `${e.name}-admin`, user: { token: e.token } })),
    contexts: entries.map((e) => ({ name: e.name, context: { cluster: e.name, user: `${e.name}-admin` } })),
  };
  return yaml.dump(config, { lineWidth: -1, noRefs: true });
}

/** Writes the kubeconfig for `entries` to `file` (owner-only: it holds tokens) and returns `file`. */
export function writeKubeconfig(file: string, entries: KubeconfigEntry[]): string {
  writeFileSync(file, renderKubeconfig(entries), { mode: 0o600 });
  return file;
}
