// What one server-side apply costs the API server, by how it is asked: N ConfigMaps created by
// SSA PATCH straight through KubeHttp (no agent around it), once per variant of the request
// (fieldValidation, the answer's encoding), the variants alternating in each round, each in
// its own namespace. Reported per variant: CPU per object of this process, the kube-apiserver
// and etcd (agent-apply-cpu.ts reads them from /proc), and the wall time. For
// docs/performance-agent.md ("Where the time goes in a first apply"); not a test.
//
//   eval "$(npm run --silent clusters -- env)"
//   node build/bench/apply-request-cost.js [--objects 500] [--rounds 3] [--concurrency 16] [--variants a,b]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeHttp, type KubeRequest } from '../src/adapters/kube/kube-http.js';
import { mapConcurrent } from '../src/adapters/map-concurrent.js';
import { cpuBetween, sampleCpu } from './agent-apply-cpu.js';
import { serverPidsOf } from './lib/server-pids.js';
import { median } from './lib/stats.js';

/** The request's options each variant sets: query parameters, the Accept header, HTTP/1.1 instead of HTTP/2. */
const variants: Record<string, { query: Record<string, string>; accept?: string; http1?: boolean }> = {
  default: { query: {} },
  http1: { query: {}, http1: true },
  strict: { query: { fieldValidation: 'Strict' } },
  ignore: { query: { fieldValidation: 'Ignore' } },
  proto: { query: {}, accept: 'application/vnd.kubernetes.protobuf' },
  meta: { query: {}, accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
  'ignore-proto': { query: { fieldValidation: 'Ignore' }, accept: 'application/vnd.kubernetes.protobuf' },
  'ignore-meta': {
    query: { fieldValidation: 'Ignore' },
    accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
  },
};

const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    context: { type: 'string', default: 'member1' },
    variants: { type: 'string', default: Object.keys(variants).join(',') },
  },
});
const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG'];
if (!kubeconfig) {
  console.error('set GITFLEET_TEST_KUBECONFIG: eval "$(npm run --silent clusters -- env)"');
  process.exit(2);
}
const chosen = values.variants.split(',');
for (const v of chosen) if (!variants[v]) throw new Error(`unknown variant ${v}`);
const total = Number(values.objects);

const kc = new KubeConfig();
kc.loadFromFile(kubeconfig);
kc.setCurrentContext(values.context);
const http2 = new KubeHttp(kc);
const http1 = new KubeHttp(kc, { http2: false });
const pids = serverPidsOf(kubeconfig, values.context);

function applyRequest(namespace: string, name: string, variant: string, body: unknown): KubeRequest {
  const v = variants[variant]!;
  const base = namespace ? `/api/v1/namespaces/${namespace}/configmaps` : '/api/v1/namespaces';
  return {
    method: 'PATCH',
    path: `${base}/${name}`,
    query: { fieldManager: 'bench', ...v.query },
    body: JSON.stringify(body),
    contentType: 'application/apply-patch+yaml',
    ...(v.accept ? { accept: v.accept } : {}),
  };
}

interface Sample {
  wallMs: number;
  clientMs: number;
  apiserverMs: number;
  etcdMs: number;
  answerBytes: number;
}

async function runVariant(variant: string, namespace: string): Promise<Sample> {
  const http = variants[variant]!.http1 ? http1 : http2;
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
  const created = await http.request(applyRequest('', namespace, 'default', ns));
  if (created.status >= 300) throw new Error(`namespace ${namespace}: ${created.status} ${created.body}`);
  const names = Array.from({ length: total }, (_, i) => `obj-${String(i).padStart(5, '0')}`);
  let answerBytes = 0;
  const before = sampleCpu(pids);
  const start = performance.now();
  await mapConcurrent(names, Number(values.concurrency), async (name, i) => {
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace, labels: { 'gitfleet.io/cluster': 'bench' } },
      data: { index: String(i), text: 'x'.repeat(200) },
    };
    const answer = await http.request(applyRequest(namespace, name, variant, body));
    if (answer.status >= 300) throw new Error(`${namespace}/${name}: ${answer.status} ${answer.body}`);
    answerBytes += Buffer.byteLength(answer.body);
  });
  const wallMs = performance.now() - start;
  const cpu = cpuBetween(before, sampleCpu(pids));
  await http.request({ method: 'DELETE', path: `/api/v1/namespaces/${namespace}` });
  return {
    wallMs,
    clientMs: cpu.selfMs ?? Number.NaN,
    apiserverMs: cpu.serversMs[0] ?? Number.NaN,
    etcdMs: cpu.serversMs[1] ?? Number.NaN,
    answerBytes,
  };
}

const samples = new Map<string, Sample[]>(chosen.map((v) => [v, []]));
const loads: string[] = [loadavg()[0]!.toFixed(1)];
for (let r = 0; r < Number(values.rounds); r++) {
  // Rotate the order so no variant always meets the server first.
  const order = chosen.map((_, i) => chosen[(i + r) % chosen.length]!);
  for (const v of order) samples.get(v)!.push(await runVariant(v, `cost-${process.pid}-${r}-${v}`));
  loads.push(loadavg()[0]!.toFixed(1));
}
http1.close();
http2.close();

const perObject = (xs: number[]) => (median(xs) / total).toFixed(3);
console.log(
  `apply request cost: ${total} ConfigMaps per variant, ${values.rounds} rounds, ${values.concurrency} in flight, load ${loads.join(' → ')}`,
);
console.log(
  'variant        apiserver ms/obj  etcd ms/obj  client ms/obj  wall ms (median, min-max)  answer B/obj',
);
for (const [v, s] of samples) {
  const walls = s.map((x) => x.wallMs);
  console.log(
    `${v.padEnd(14)} ${perObject(s.map((x) => x.apiserverMs)).padStart(16)}  ${perObject(s.map((x) => x.etcdMs)).padStart(11)}  ` +
      `${perObject(s.map((x) => x.clientMs)).padStart(13)}  ${String(Math.round(median(walls))).padStart(8)} (${Math.round(Math.min(...walls))}-${Math.round(Math.max(...walls))})` +
      `${' '.repeat(12)}${Math.round(median(s.map((x) => x.answerBytes)) / total)}`,
  );
}
