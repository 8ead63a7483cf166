// A validating admission webhook that holds a test cluster's API server at a known point: it
// admits the writes to the first `admit` distinct ConfigMap names of one namespace (those a
// pattern picks: not kube-root-ca.crt, which the cluster writes into each namespace), then holds
// every further write unanswered until the test releases them, and admits everything after
// that. A pass that writes those ConfigMaps therefore stops at the (N+1)-th object with its
// requests on the wire, however fast the machine: what a test asserts about "the pass had not
// finished yet" is a fact the API server keeps, not a race against speed.
//
// The webhook is a real one: an HTTPS server on 127.0.0.1 (admission-gate-server.ts, in a worker
// thread) that presents the test API server's own self-generated serving certificate (its SANs name 127.0.0.1; the file holds the
// certificate and the CA that signed it, which is the webhook's caBundle), registered with a
// ValidatingWebhookConfiguration scoped by namespaceSelector to the test's namespaces,
// failurePolicy Fail, sideEffects None, timeoutSeconds 30 (a held request not released by then
// fails, and never lands). The configuration is cluster-scoped: `close` deletes it.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { readClustersState } from '../clusters/harness/cluster-state.js';
import { certDir } from '../clusters/harness/component-args.js';
import { kubectl } from './agent-fixture.js';
import { eventually, uniqueName } from './test-clusters.js';
import type { GatePhase, GateServerData, GateServerMessage } from './admission-gate-server.js';

/** One ConfigMap write the webhook was asked about. */
export interface GateRequest {
  name: string;
  namespace: string;
  dryRun: boolean;
  phase: GatePhase;
}

/** A running admission gate on a test cluster. */
export interface AdmissionGate {
  /** Every write the webhook was asked about, in arrival order. */
  requests(): readonly GateRequest[];
  /** The requests held unanswered now. */
  heldCount(): number;
  /** Answers the held requests (admitted) and admits every later one; resolves once it has. */
  release(): Promise<void>;
  /** Deletes the webhook configuration, answers what is held, and stops the server. */
  close(): Promise<void>;
}

/** Options of startAdmissionGate. */
export interface AdmissionGateOptions {
  /** The namespace whose ConfigMap writes are gated. */
  namespace: string;
  /** The ConfigMap names gated; writes to others are admitted at once. */
  names: RegExp;
  /** Distinct gated names admitted before the gate holds. */
  admit: number;
  /** A namespace that exists now, where the gate proves it is in the API server's path. */
  probeNamespace: string;
  /** The test cluster (kubeconfig context); default member1. */
  context?: string;
}

/** Returns the serving certificate (with its CA) and key kube-apiserver generated for `context`. */
function servingCertificate(context: string): { cert: string; key: string } {
  const stateDir = dirname(process.env['GITFLEET_TEST_KUBECONFIG']!);
  // `npm run clusters -- up` records its clusters in state.json; `npm test` keeps the record in
  // memory, and both put a cluster's files in <state dir>/<name>.
  const recorded = readClustersState(stateDir)?.clusters.find((c) => c.name === context);
  const pki = certDir(recorded?.dir ?? join(stateDir, context));
  if (!existsSync(join(pki, 'apiserver.crt')))
    throw new Error(`no serving certificate of test cluster ${context} in ${pki}`);
  return {
    cert: readFileSync(join(pki, 'apiserver.crt'), 'utf8'),
    key: readFileSync(join(pki, 'apiserver.key'), 'utf8'),
  };
}

/** Starts the gate's server, registers the webhook and waits until the API server calls it. */
export async function startAdmissionGate(opts: AdmissionGateOptions): Promise<AdmissionGate> {
  const context = opts.context ?? 'member1';
  const tls = servingCertificate(context);
  const data: GateServerData = {
    ...tls,
    namespace: opts.namespace,
    names: opts.names.source,
    admit: opts.admit,
  };
  const worker = new Worker(new URL('./admission-gate-server.js', import.meta.url), { workerData: data });
  const seen: GateRequest[] = [];
  let held = 0;
  const acks: (() => void)[] = [];
  worker.on('exit', () => acks.splice(0).forEach((ack) => ack()));
  const port = new Promise<number>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: GateServerMessage) => {
      if (m.type === 'listening') resolve(m.port);
      else if (m.type === 'released') {
        held = 0;
        acks.splice(0).forEach((ack) => ack());
      } else {
        seen.push({ name: m.name, namespace: m.namespace, dryRun: m.dryRun, phase: m.phase });
        if (m.phase === 'held') held++;
      }
    });
  });
  const name = uniqueName('gitfleet-test-gate');
  const release = () =>
    new Promise<void>((resolve) => {
      acks.push(resolve);
      worker.postMessage('release');
    });
  const close = async () => {
    kubectl(['delete', 'validatingwebhookconfiguration', name, '--ignore-not-found'], { context });
    await release();
    await worker.terminate();
  };
  try {
    const config = webhookConfiguration(name, await port, opts, tls.cert);
    kubectl(['apply', '-f', '-'], { context, input: JSON.stringify(config) });
    // The API server reads webhook configurations from its own cache: the gate is in its path once
    // a (dry-run) write in the probe namespace reaches it.
    await eventually('the API server calls the admission gate', async () => {
      await probe(context, opts.probeNamespace);
      return seen.some((s) => s.namespace === opts.probeNamespace) ? true : undefined;
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { requests: () => seen, heldCount: () => held, release, close };
}

function webhookConfiguration(name: string, port: number, opts: AdmissionGateOptions, caPem: string): object {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name, labels: { 'gitfleet.test/owner': 'kube-tests' } },
    webhooks: [
      {
        name: 'gate.gitfleet.test',
        clientConfig: { url: `https://127.0.0.1:${port}/`, caBundle: Buffer.from(caPem).toString('base64') },
        rules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['configmaps'],
            scope: 'Namespaced',
          },
        ],
        namespaceSelector: {
          matchExpressions: [
            {
              key: 'kubernetes.io/metadata.name',
              operator: 'In',
              values: [opts.namespace, opts.probeNamespace],
            },
          ],
        },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        timeoutSeconds: 30,
        admissionReviewVersions: ['v1'],
      },
    ],
  };
}

/**
 * Asks the API server to create (dry run) a ConfigMap in `namespace`. Not with the fixture's
 * kubectl: that one waits synchronously, and the gate answering in this process could not.
 */
async function probe(context: string, namespace: string): Promise<void> {
  const args = ['--kubeconfig', process.env['GITFLEET_TEST_KUBECONFIG']!, '--context', context];
  const create = ['create', 'configmap', 'gate-probe', '-n', namespace, '--dry-run=server'];
  await promisify(execFile)(join(process.env['GITFLEET_K8S_BIN']!, 'kubectl'), [...args, ...create]);
}
