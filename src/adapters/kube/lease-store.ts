// One coordination.k8s.io/v1 Lease, read and written as the leader election needs it: a read
// that returns the record with its resourceVersion, a create, and an update that carries the
// resourceVersion it read, so the API server refuses it (409) when anyone wrote the Lease since.
// That compare-and-swap is what keeps two candidates from both taking an expired lease.
//
// Every request has a timeout: an API server that does not answer must not hold a renewal past
// the renew deadline.
import { GitfleetError } from '../../core/model/gitfleet-error.js';
import { KubeApiError, refusalOf } from './kube-error.js';
import type { KubeHttp } from './kube-http.js';

/** The Lease's spec as the election reads it (client-go's LeaderElectionRecord). */
export interface LeaseRecord {
  /** Who holds it; empty once released. */
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** RFC 3339 with microseconds (a MicroTime), as the holder's clock said: never used to judge expiry. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions: number;
}

/** The record and the resourceVersion it was read at. */
export interface StoredLease {
  record: LeaseRecord;
  resourceVersion: string;
}

/** The Lease the election works on; each call makes one request. */
export interface LeaseStore {
  /** `Lease <namespace>/<name>` and where: for messages. */
  readonly description: string;
  /** Returns the Lease, or undefined when there is none; throws when it cannot be read. */
  get(): Promise<StoredLease | undefined>;
  /** Creates the Lease; 'conflict' when someone created it first. */
  create(record: LeaseRecord): Promise<StoredLease | 'conflict'>;
  /** Replaces the record if the Lease is still at `resourceVersion`; 'conflict' when it moved. */
  update(record: LeaseRecord, resourceVersion: string): Promise<StoredLease | 'conflict'>;
}

/** The Lease's namespace does not exist: nothing the election can fix by trying again. */
export class LeaseNamespaceMissing extends GitfleetError<'LeaseNamespaceMissing'> {
  constructor(message: string) {
    super(message, { code: 'LeaseNamespaceMissing', terminal: true });
  }
}

export interface KubeLeaseStoreOptions {
  http: KubeHttp;
  namespace: string;
  name: string;
  /** Where the Lease lives, for messages (`the hub's lease cluster`, `member cluster member1`). */
  where: string;
  /** How long one request may take (default 10 s; the election passes its retry period or less). */
  timeoutMs?: number;
  /** Added to the namespace-missing error: how the namespace is meant to exist. */
  namespaceHint?: string;
}

interface LeaseObject {
  metadata?: { resourceVersion?: string };
  spec?: Partial<LeaseRecord> & { holderIdentity?: string | null };
}

/** Returns the store of one Lease over the API server that `http` reaches. */
export function kubeLeaseStore(opts: KubeLeaseStoreOptions): LeaseStore {
  return new KubeLeaseStore(opts);
}

// One Lease's paths and the three calls an election makes on it.
class KubeLeaseStore implements LeaseStore {
  readonly description: string;
  private readonly collection: string;
  private readonly path: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: KubeLeaseStoreOptions) {
    this.collection = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(opts.namespace)}/leases`;
    this.path = `${this.collection}/${encodeURIComponent(opts.name)}`;
    this.description = `Lease ${opts.namespace}/${opts.name} in ${opts.where}`;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  async get(): Promise<StoredLease | undefined> {
    const answer = await this.opts.http.request({
      method: 'GET',
      path: this.path,
      timeoutMs: this.timeoutMs,
    });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) return this.fail('GET', answer);
    return stored(answer.body);
  }

  async create(record: LeaseRecord): Promise<StoredLease | 'conflict'> {
    const answer = await this.send('POST', this.collection, record);
    if (answer.status === 409) return 'conflict';
    if (answer.status !== 201 && answer.status !== 200) return this.fail('POST', answer);
    return stored(answer.body);
  }

  async update(record: LeaseRecord, resourceVersion: string): Promise<StoredLease | 'conflict'> {
    const answer = await this.send('PUT', this.path, record, resourceVersion);
    if (answer.status === 409) return 'conflict';
    if (answer.status !== 200) return this.fail('PUT', answer);
    return stored(answer.body);
  }

  private send(method: 'POST' | 'PUT', path: string, record: LeaseRecord, resourceVersion?: string) {
    const { name, namespace } = this.opts;
    const metadata = { name, namespace, ...(resourceVersion !== undefined ? { resourceVersion } : {}) };
    const body = JSON.stringify({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata,
      spec: record,
    });
    return this.opts.http.request({
      method,
      path,
      body,
      contentType: 'application/json',
      timeoutMs: this.timeoutMs,
    });
  }

  private fail(verb: string, answer: { status: number; body: string }): never {
    const refusal = refusalOf(answer.status, answer.body);
    const { namespace, namespaceHint } = this.opts;
    if (answer.status === 404 && /namespaces? .*not found/i.test(refusal.message)) {
      throw new LeaseNamespaceMissing(
        `${this.description}: namespace ${namespace} does not exist${namespaceHint ? `; ${namespaceHint}` : ''}`,
      );
    }
    throw new KubeApiError(`${verb} ${this.description}`, refusal);
  }
}

function stored(text: string): StoredLease {
  const lease = JSON.parse(text) as LeaseObject;
  return { record: recordOf(lease), resourceVersion: lease.metadata?.resourceVersion ?? '' };
}

function recordOf(lease: LeaseObject): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    ...(spec.acquireTime ? { acquireTime: spec.acquireTime } : {}),
    ...(spec.renewTime ? { renewTime: spec.renewTime } : {}),
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
}

/** Returns `ms` since the epoch as a Kubernetes MicroTime (RFC 3339, six fraction digits, UTC). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
