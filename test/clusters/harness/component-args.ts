// Command lines of the programs of one member cluster. Everything listens on 127.0.0.1 only;
// the service CIDR and pod CIDR are configuration values, no traffic ever goes to them.
import { join } from 'node:path';
import type { ClusterPorts, ComponentName } from './cluster-state.js';

/** What the command lines of one cluster are made from. */
export interface ComponentInputs {
  dir: string;
  ports: ClusterPorts;
  tokenFile: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
  /** kubeconfig of the cluster's admin, used by the controllers. */
  adminKubeconfig: string;
  /** kwok's stage configuration (node and pod lifecycles). */
  kwokStages: string;
}

/** The annotation that marks the Nodes kwok simulates (and the only ones it touches). */
export const kwokNodeAnnotation = 'kwok.x-k8s.io/node';

/** Returns the directory kube-apiserver writes its self-signed serving certificate to. */
export function certDir(dir: string): string {
  return join(dir, 'pki');
}

function etcdArgs(i: ComponentInputs): string[] {
  const client = `http://127.0.0.1:${i.ports.etcdClient}`;
  const peer = `http://127.0.0.1:${i.ports.etcdPeer}`;
  return [
    '--name=default',
    `--data-dir=${join(i.dir, 'etcd')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--initial-cluster-state=new',
    '--quota-backend-bytes=536870912',
    // Test data is thrown away with the cluster: durability buys nothing and fsync costs seconds.
    '--unsafe-no-fsync',
    '--log-level=warn',
  ];
}

function apiserverArgs(i: ComponentInputs): string[] {
  return [
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${i.ports.apiserver}`,
    `--etcd-servers=http://127.0.0.1:${i.ports.etcdClient}`,
    `--cert-dir=${certDir(i.dir)}`,
    `--token-auth-file=${i.tokenFile}`,
    '--authorization-mode=Node,RBAC',
    `--service-account-key-file=${i.serviceAccountPub}`,
    `--service-account-signing-key-file=${i.serviceAccountKey}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    '--service-cluster-ip-range=10.96.0.0/16',
    // The `kubernetes` Service cannot point at a loopback address; nothing here routes to it.
    '--endpoint-reconciler-type=none',
    '--enable-priority-and-fairness=false',
    '--allow-privileged=true',
    '--profiling=false',
  ];
}

function controllerManagerArgs(i: ComponentInputs): string[] {
  return [
    `--kubeconfig=${i.adminKubeconfig}`,
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    '--leader-elect=false',
    '--use-service-account-credentials=false',
    // No node IPAM (no pod network) and no cloud: everything else runs, as in a real cluster.
    '--controllers=*,-nodeipam,-cloud-node-lifecycle,-service,-route',
    `--service-account-private-key-file=${i.serviceAccountKey}`,
    `--root-ca-file=${join(certDir(i.dir), 'apiserver.crt')}`,
    // Its default is a folder under /usr/libexec, which it would create on the host.
    `--flex-volume-plugin-dir=${join(i.dir, 'flexvolume')}`,
    '--profiling=false',
  ];
}

function schedulerArgs(i: ComponentInputs): string[] {
  return [
    `--kubeconfig=${i.adminKubeconfig}`,
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    '--leader-elect=false',
    '--profiling=false',
  ];
}

function kwokArgs(i: ComponentInputs): string[] {
  return [
    `--kubeconfig=${i.adminKubeconfig}`,
    `--config=${i.kwokStages}`,
    '--manage-all-nodes=false',
    `--manage-nodes-with-annotation-selector=${kwokNodeAnnotation}=fake`,
    '--node-lease-duration-seconds=40',
    '--cidr=10.0.0.0/16',
    '--node-ip=10.0.0.1',
  ];
}

const argsOf: Record<ComponentName, (i: ComponentInputs) => string[]> = {
  etcd: etcdArgs,
  'kube-apiserver': apiserverArgs,
  'kube-controller-manager': controllerManagerArgs,
  'kube-scheduler': schedulerArgs,
  kwok: kwokArgs,
};

/** Returns the command-line arguments of `component` for the cluster described by `inputs`. */
export function componentArgs(component: ComponentName, inputs: ComponentInputs): string[] {
  return argsOf[component](inputs);
}
