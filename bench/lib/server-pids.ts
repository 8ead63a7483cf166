// The pids of the kube-apiserver behind a kubeconfig context and of its etcd, found in /proc by
// their command lines (the apiserver's --secure-port, then the etcd its --etcd-servers names),
// so a benchmark can read their CPU time. Empty off Linux or when they are not on this machine.
import { readdirSync, readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';

function commandLines(): { pid: number; args: string[] }[] {
  const out: { pid: number; args: string[] }[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const args = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
      out.push({ pid: Number(e), args });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

/** Returns [apiserver, etcd] pids (either may be missing). */
export function serverPidsOf(kubeconfig: string, context: string): number[] {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  kc.setCurrentContext(context);
  const server = kc.getCurrentCluster()?.server;
  if (!server) return [];
  const port = new URL(server).port;
  const all = commandLines();
  const apiserver = all.find(
    (p) => p.args[0]?.endsWith('kube-apiserver') && p.args.includes(`--secure-port=${port}`),
  );
  if (!apiserver) return [];
  const etcdUrl = apiserver.args.find((a) => a.startsWith('--etcd-servers='))?.split('=')[1];
  const etcd = etcdUrl
    ? all.find((p) => p.args[0]?.endsWith('etcd') && p.args.some((a) => a.includes(etcdUrl)))
    : undefined;
  return etcd ? [apiserver.pid, etcd.pid] : [apiserver.pid];
}
