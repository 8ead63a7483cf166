// The admission gate's webhook server (admission-gate.ts), run in a worker thread of its own so
// it answers however long the test's thread waits on a synchronous kubectl. HTTP/2 (HTTP/1.1
// for a client without it): the API server then calls it over one TLS connection, not one per
// held request. It tells the test thread each request it got, and answers the held ones when the
// test thread says `release`.
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

/** What the test thread gives the worker. */
export interface GateServerData {
  cert: string;
  key: string;
  namespace: string;
  /** The source of the RegExp of the gated names. */
  names: string;
  admit: number;
}

/** What the gate did with one request: admitted at once, held until release, or admitted after release. */
export type GatePhase = 'admitted' | 'held' | 'released';

/** Messages from the worker to the test thread. */
export type GateServerMessage =
  | { type: 'listening'; port: number }
  | { type: 'request'; name: string; namespace: string; dryRun: boolean; phase: GatePhase }
  | { type: 'released' };

interface Review {
  request: { uid: string; name?: string; namespace?: string; dryRun?: boolean };
}

const data = workerData as GateServerData;
const names = new RegExp(data.names);
const admittedNames = new Set<string>();
const held: (() => void)[] = [];
let released = false;

function phaseOf(r: Review['request']): GatePhase {
  if (released) return 'released';
  const name = r.name ?? '';
  if (r.namespace !== data.namespace || !names.test(name) || admittedNames.has(name)) return 'admitted';
  if (admittedNames.size < data.admit) {
    admittedNames.add(name);
    return 'admitted';
  }
  return 'held';
}

function answer(review: Review, res: Http2ServerResponse): void {
  const response = { uid: review.request.uid, allowed: true };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
}

async function readReview(req: Http2ServerRequest): Promise<Review> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
}

const post = (message: GateServerMessage) => parentPort!.postMessage(message);
const server = createSecureServer(
  { cert: data.cert, key: data.key, allowHTTP1: true, settings: { maxConcurrentStreams: 1000 } },
  (req, res) => {
    void readReview(req).then((review) => {
      const r = review.request;
      const phase = phaseOf(r);
      post({
        type: 'request',
        name: r.name ?? '',
        namespace: r.namespace ?? '',
        dryRun: r.dryRun === true,
        phase,
      });
      if (phase === 'held') held.push(() => answer(review, res));
      else answer(review, res);
    });
  },
);
parentPort!.on('message', (message: 'release') => {
  if (message !== 'release') return;
  released = true;
  for (const send of held.splice(0)) send();
  post({ type: 'released' });
});
server.listen(0, '127.0.0.1', () =>
  post({ type: 'listening', port: (server.address() as AddressInfo).port }),
);
