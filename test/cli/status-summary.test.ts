// `gitfleet status` by default: the clusters' and the templates' summaries, on a repository whose
// cluster and bindings branches were written by real hub passes and whose status branches were
// written as the agents write them.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { readFleetStatus } from '../../src/loops/views/read-fleet-status.js';
import { fleetStatusTable } from '../../src/core/status/status-table.js';
import { explainTemplateSummaries } from '../../src/core/status/explain-template.js';
import {
  summarizeClusters,
  summarizeTemplates,
  type ClusterSummary,
  type TemplateSummary,
} from '../../src/core/status/fleet-summary.js';
import {
  commitChange,
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import {
  clusterDoc,
  commitReport,
  commitStatusFiles,
  head,
  recordsOf,
  shopFleet,
  statusAt,
} from './status-fixture.js';
import { writeFileSync } from 'node:fs';
import { runCli } from './run-cli.js';
import { join } from 'node:path';

after(removeFleetRepos);

const reportedAt = 1_700_000_300;
const now = new Date((reportedAt + 90) * 1000);
const ready = { conditions: [{ type: 'Ready', status: 'True' as const }], kubernetesVersion: 'v1.31.0' };

interface Fixture {
  repo: FleetRepo;
  m1First: string;
  m1Head: string;
  m2Head: string;
}

// Two renders (the image bumped in between), then m1 reports the first render (one behind), m2
// reports its head with web Progressing, m3's status branch holds no AgentReport, and a third
// pass aggregates the reports into the binding records.
async function buildFixture(): Promise<Fixture> {
  const repo = fleetRepoWith(shopFleet('web:1'), { bare: false });
  rendered(await hubPass(repo));
  const m1First = head(repo, 'gitfleet/clusters/m1');
  commitChange(repo, 'bump web', (work) =>
    writeFileSync(join(work, 'apps/web.yaml'), shopFleet('web:2')['apps/web.yaml']!),
  );
  rendered(await hubPass(repo));
  const m1Head = head(repo, 'gitfleet/clusters/m1');
  const m2Head = head(repo, 'gitfleet/clusters/m2');
  await commitReport(
    repo,
    { cluster: 'm1', appliedCommit: m1First, clusterStatus: ready, objects: recordsOf(repo, m1First) },
    reportedAt,
  );
  await commitReport(
    repo,
    {
      cluster: 'm2',
      appliedCommit: m2Head,
      clusterStatus: ready,
      objects: recordsOf(repo, m2Head, { 'Deployment/web': 'Progressing' }),
    },
    reportedAt,
  );
  await commitStatusFiles(repo, 'm3', new Map([['cluster.yaml', 'kind: [unclosed\n']]), reportedAt);
  rendered(await hubPass(repo));
  return { repo, m1First, m1Head, m2Head };
}

const fixture = await buildFixture();

test('status -o json summarizes every cluster and template; an unreadable status branch is one unreadable cluster', async () => {
  const { code, stdout, stderr } = await statusAt({ repo: fixture.repo.path, output: 'json' }, now);
  assert.equal(code, 0, stderr);
  const got = JSON.parse(stdout) as { clusters: ClusterSummary[]; templates: TemplateSummary[] };
  const byName = new Map(got.clusters.map((c) => [c.cluster, c]));
  assert.deepEqual([...byName.keys()], ['m1', 'm2', 'm3']);
  const m1 = byName.get('m1')!;
  assert.equal(m1.ready, 'True');
  assert.equal(m1.appliedCommit, fixture.m1First);
  assert.equal(m1.renderedCommit, fixture.m1Head);
  assert.deepEqual(m1.behind, { type: 'Behind', commits: 1 });
  assert.equal(m1.reportedAt, new Date(reportedAt * 1000).toISOString());
  assert.equal(m1.reportAgeSeconds, 90);
  const m2 = byName.get('m2')!;
  assert.deepEqual(m2.behind, { type: 'Behind', commits: 0 });
  // web, settings and the shop Namespace: web Progressing.
  assert.deepEqual(m2.objects, { total: 3, healthy: 2, progressing: 1, degraded: 0, unknown: 0, failed: 0 });
  const m3 = byName.get('m3')!;
  assert.equal(m3.ready, 'Unreadable');
  assert.match(m3.readyMessage!, /^cluster\.yaml is not YAML: /);

  const web = got.templates.find((t) => t.template === 'Deployment/shop/web')!;
  assert.deepEqual(web.placement, [
    { cluster: 'm1', replicas: 2 },
    { cluster: 'm2', replicas: 2 },
  ]);
  // m1 applied an older render (not yet applied), m2 runs it Progressing.
  assert.equal(web.health, 'Unknown');
  assert.deepEqual(web.counts, { healthy: 0, progressing: 1, degraded: 0, unknown: 0, notApplied: 1 });
  assert.equal(
    web.message,
    // Its explanation (core/status/explain-template.ts): the worst cluster, and one more not Healthy.
    `m1: its agent applied ${fixture.m1First.slice(0, 7)}, the hub rendered ${fixture.m1Head.slice(0, 7)}: waiting for its next apply (and 1 more)`,
  );
  assert.equal(web.reason, 'NotYetApplied');
  assert.deepEqual(
    web.explanation?.map((c) => [c.cluster, c.reason]),
    [
      ['m1', 'NotYetApplied'],
      ['m2', 'Progressing'],
    ],
  );
});

test('the summaries read from the hub-aggregated records are the ones read from every status record', async () => {
  const fresh = await readFleetStatus({ dir: fixture.repo.path, objects: 'fresh' });
  const whole = await readFleetStatus({ dir: fixture.repo.path });
  assert.deepEqual([...fresh.aggregatedByHub].sort(), ['m1', 'm2'], 'the last pass aggregated m1 and m2');
  assert.equal(whole.aggregatedByHub.size, 0);
  // Only what is not a binding placed there is read from a cluster the hub aggregated.
  assert.deepEqual(
    fresh.reports.get('m2')!.objects.map((o) => o.ref.kind),
    ['Namespace'],
  );
  assert.equal(whole.reports.get('m2')!.objects.length, 3);
  assert.deepEqual(summarizeTemplates(fresh), summarizeTemplates(whole));
  // The explanation too: the hub keeps the health check's reason in its aggregation.
  assert.deepEqual(explainTemplateSummaries(fresh), explainTemplateSummaries(whole));
  assert.deepEqual(summarizeClusters(fresh, now), summarizeClusters(whole, now));
  assert.deepEqual(fleetStatusTable(fresh), fleetStatusTable(whole));
});

test('status -o yaml is the JSON document in YAML', async () => {
  const json = await statusAt({ repo: fixture.repo.path, output: 'json' }, now);
  const text = await statusAt({ repo: fixture.repo.path, output: 'yaml' }, now);
  assert.equal(text.code, 0, text.stderr);
  assert.deepEqual(yaml.load(text.stdout), JSON.parse(json.stdout));
});

test('status prints the clusters table, why m3 is unreadable, then the templates table', async () => {
  const { code, stdout } = await statusAt({ repo: fixture.repo.path }, now);
  assert.equal(code, 0);
  const [header, clusters, notes, templates] = stdout.split('\n\n');
  assert.match(header!, /^fleet at main [0-9a-f]{7} \S.* \(rendered \S+ ago; bindings [0-9a-f]{7}\)$/);
  const lines = clusters!.split('\n');
  assert.match(
    lines[0]!,
    /^CLUSTER +READY +RENDERED +APPLIED +BEHIND +OBJECTS +HEALTHY +PROGRESSING +DEGRADED +UNKNOWN +FAILED +REPORTED$/,
  );
  assert.match(
    lines[1]!,
    new RegExp(
      `^m1 +True +${fixture.m1Head.slice(0, 7)} +${fixture.m1First.slice(0, 7)} +1 +3 +3 +0 +0 +0 +0 +90s$`,
    ),
  );
  assert.match(lines[3]!, /^m3 +Unreadable +\S+ +- +- +0 /);
  assert.match(notes!, /^m3: status branch unreadable: cluster\.yaml is not YAML: /);
  assert.match(templates!.split('\n')[0]!, /^TEMPLATE +CLUSTERS +REPLICAS +HEALTH +HEALTHY +MESSAGE$/);
  assert.ok(
    templates!
      .split('\n')
      .some((l) =>
        /^Deployment\/shop\/web +2 +4 \(m1:2 m2:2\) +Unknown +0\/2 +m1: its agent applied/.test(l),
      ),
  );
});

test('--cluster keeps that cluster and what is placed there; --template and -l pick templates', async () => {
  const m3 = JSON.parse(
    (await statusAt({ repo: fixture.repo.path, output: 'json', clusters: ['m3'] }, now)).stdout,
  ) as {
    clusters: ClusterSummary[];
    templates: TemplateSummary[];
  };
  assert.deepEqual(
    m3.clusters.map((c) => c.cluster),
    ['m3'],
  );
  assert.deepEqual(
    m3.templates.map((t) => t.template),
    ['ConfigMap/shop/settings'],
  );
  const byPattern = JSON.parse(
    (await statusAt({ repo: fixture.repo.path, output: 'json', templates: ['deployment/*/w*'] }, now)).stdout,
  ) as { templates: TemplateSummary[] };
  assert.deepEqual(
    byPattern.templates.map((t) => t.template),
    ['Deployment/shop/web'],
  );
  const byLabel = JSON.parse(
    (await statusAt({ repo: fixture.repo.path, output: 'json', selector: 'tier=front' }, now)).stdout,
  ) as {
    templates: TemplateSummary[];
  };
  assert.deepEqual(
    byLabel.templates.map((t) => t.template),
    ['Deployment/shop/web'],
  );
  const unknown = await runCli(['status', '--repo', fixture.repo.path, '--cluster', 'm9']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--cluster m9: no such cluster in .* \(known: m1, m2, m3\)/);
});

test('--wide shows the placed rows only, --all every cluster', async () => {
  const placed = JSON.parse(
    (await statusAt({ repo: fixture.repo.path, output: 'json', wide: true }, now)).stdout,
  ) as {
    rows: { template: string; cluster: string }[];
  };
  const web = placed.rows.filter((r) => r.template === 'Deployment/shop/web').map((r) => r.cluster);
  assert.deepEqual(web, ['m1', 'm2']);
  const all = JSON.parse(
    (await statusAt({ repo: fixture.repo.path, output: 'json', wide: true, all: true }, now)).stdout,
  ) as {
    rows: { template: string; cluster: string }[];
  };
  assert.deepEqual(
    all.rows.filter((r) => r.template === 'Deployment/shop/web').map((r) => r.cluster),
    ['m1', 'm2', 'm3'],
  );
  await assert.rejects(statusAt({ repo: fixture.repo.path, all: true }, now), /--all goes with --wide/);
});

test('a cluster more than 50 commits behind its rendered head shows >50; a few behind, the count', async () => {
  const fleet = (n: number) => ({
    'clusters/far.yaml': clusterDoc('far'),
    'apps/counter.yaml': `apiVersion: v1
kind: ConfigMap
metadata: {name: counter, namespace: ops}
data: {n: "${n}"}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: counter, namespace: ops}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: counter}]
  placement: {clusterAffinity: {clusterNames: [far]}}
`,
  });
  const repo = fleetRepoWith(fleet(0), { bare: false });
  rendered(await hubPass(repo));
  const first = head(repo, 'gitfleet/clusters/far');
  for (let n = 1; n <= 52; n++) {
    commitChange(repo, `counter ${n}`, (work) =>
      writeFileSync(join(work, 'apps/counter.yaml'), fleet(n)['apps/counter.yaml']),
    );
    rendered(await hubPass(repo));
  }
  await commitReport(
    repo,
    { cluster: 'far', appliedCommit: first, clusterStatus: ready, objects: recordsOf(repo, first) },
    reportedAt,
  );
  const far = async () =>
    (
      JSON.parse((await statusAt({ repo: repo.path, output: 'json' }, now)).stdout) as {
        clusters: ClusterSummary[];
      }
    ).clusters[0]!;
  assert.deepEqual((await far()).behind, { type: 'AtLeast', commits: 50 });
  assert.match(
    (await statusAt({ repo: repo.path }, now)).stdout.split('\n')[3]!,
    /^far +True +\S+ +\S+ +>50 /,
  );
  const threeBack = head(repo, 'gitfleet/clusters/far~3');
  await commitReport(
    repo,
    { cluster: 'far', appliedCommit: threeBack, clusterStatus: ready, objects: recordsOf(repo, threeBack) },
    reportedAt,
  );
  assert.deepEqual((await far()).behind, { type: 'Behind', commits: 3 });
});
