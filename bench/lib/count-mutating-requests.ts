// Mutating requests an API server served, from its own metrics: `apiserver_request_total` on
// /metrics, scraped with the kubeconfig's admin token before and after the work to count. Works
// for any client (kubectl included), since the server counts, not the client.
//
//   const before = await scrapeRequestCounts(target);
//   … kubectl apply …
//   const n = mutatingRequestsBetween(before, await scrapeRequestCounts(target), { resources: ['configmaps'] });
//
// Server-side apply is counted under verb APPLY, not PATCH. A dry-run write (label dry_run
// set, e.g. "All") stores nothing, so it is counted apart from the mutating requests. The counter has no user or
// namespace label, so other writers on the same server (controllers, leases) are counted too:
// narrow it by resource, and leave subresources (status, …) out, which is the default.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import yaml from 'js-yaml';

/** An API server and the admin token to read its metrics with. */
export interface MetricsTarget {
  server: string;
  token: string;
  /** PEM to trust; without it the serving certificate is not verified (test clusters only). */
  ca?: string;
}

/** One series of apiserver_request_total: its labels and value. */
export interface RequestCount {
  verb: string;
  resource: string;
  subresource: string;
  group: string;
  code: string;
  /** The write was a dry run (label dry_run not empty): nothing was stored. */
  dryRun: boolean;
  value: number;
}

export const mutatingVerbs: ReadonlySet<string> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'APPLY',
  'DELETE',
  'DELETECOLLECTION',
]);

/** Returns the server and admin token of a kubeconfig context (the current one by default). */
export function metricsTargetFromKubeconfig(file: string, context?: string): MetricsTarget {
  type Named<T> = { name: string } & T;
  const config = yaml.load(readFileSync(file, 'utf8')) as {
    'current-context'?: string;
    contexts: Named<{ context: { cluster: string; user: string } }>[];
    clusters: Named<{ cluster: { server: string; 'certificate-authority-data'?: string } }>[];
    users: Named<{ user: { token?: string } }>[];
  };
  const name = context ?? config['current-context'];
  const ctx = config.contexts.find((c) => c.name === name)?.context;
  const cluster = config.clusters.find((c) => c.name === ctx?.cluster)?.cluster;
  const token = config.users.find((u) => u.name === ctx?.user)?.user.token;
  if (!cluster || !token) throw new Error(`${file}: context ${name} has no server or no token`);
  const caData = cluster['certificate-authority-data'];
  return {
    server: cluster.server,
    token,
    ...(caData === undefined ? {} : { ca: Buffer.from(caData, 'base64').toString('utf8') }),
  };
}

/** Returns every apiserver_request_total series the server reports now. */
export async function scrapeRequestCounts(target: MetricsTarget): Promise<RequestCount[]> {
  return parseRequestCounts(await getText(target, '/metrics'));
}

/** Returns the apiserver_request_total series of a metrics text. */
export function parseRequestCounts(text: string): RequestCount[] {
  const counts: RequestCount[] = [];
  for (const line of text.split('\n')) {
    const match = /^apiserver_request_total\{([^}]*)\}\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    counts.push({
      verb: labels['verb'] ?? '',
      resource: labels['resource'] ?? '',
      subresource: labels['subresource'] ?? '',
      group: labels['group'] ?? '',
      code: labels['code'] ?? '',
      dryRun: (labels['dry_run'] ?? '') !== '',
      value: Number(match[2]),
    });
  }
  return counts;
}

/** Writes between two scrapes, per verb and in total. */
export interface WriteCounts {
  total: number;
  byVerb: Record<string, number>;
}

/** Returns how many mutating requests were served between two scrapes, and apart from them the dry-run writes. */
export function mutatingRequestsBetween(
  before: readonly RequestCount[],
  after: readonly RequestCount[],
  filter: { resources?: readonly string[]; subresources?: boolean } = {},
): WriteCounts & { dryRun: WriteCounts } {
  const keep = (c: RequestCount) =>
    mutatingVerbs.has(c.verb) &&
    (filter.resources === undefined || filter.resources.includes(c.resource)) &&
    (filter.subresources === true || c.subresource === '');
  const key = (c: RequestCount) =>
    `${c.verb} ${c.group} ${c.resource} ${c.subresource} ${c.code} ${c.dryRun ? 'dry' : ''}`;
  const old = new Map(before.filter(keep).map((c) => [key(c), c.value]));
  const writes: WriteCounts = { total: 0, byVerb: {} };
  const dryRun: WriteCounts = { total: 0, byVerb: {} };
  for (const c of after.filter(keep)) {
    const delta = c.value - (old.get(key(c)) ?? 0);
    if (delta <= 0) continue;
    const into = c.dryRun ? dryRun : writes;
    into.byVerb[c.verb] = (into.byVerb[c.verb] ?? 0) + delta;
    into.total += delta;
  }
  return { ...writes, dryRun };
}

function getText(target: MetricsTarget, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, target.server),
      {
        headers: { authorization: `Bearer ${target.token}` },
        ...(target.ca === undefined ? { rejectUnauthorized: false } : { ca: target.ca }),
        timeout: 30_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(body)
            : reject(new Error(`GET ${path}: ${res.statusCode} ${body.slice(0, 200)}`)),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}
