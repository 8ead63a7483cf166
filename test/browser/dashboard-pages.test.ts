// The dashboard as the place to look (issue 29 point 2), in a real browser on a fleet in trouble
// (troubled-fleet.ts: real hub passes, status branches as agents write them): the templates
// overview with health and sync badges and the reason for each one not Healthy, the cluster
// page (conditions, taints with the commit that added each, capacity, evictions, rollouts, what
// is placed), the template page (each cluster, the eviction, the rollout, the live status) and
// the rollout and eviction lists. What the pages show is checked against Git itself (git log,
// git grep of the bindings branch), not against numbers written here. Screenshots of every page,
// at 1366×768, go to test-output/dashboard-pages/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { git, removeFleetRepos, type FleetRepo } from '../loops/hub/hub-fixture.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { skipReason } from './launch-chromium.js';
import { assertEveryPageReads, openDashboard, textsOf, type DashboardSession } from './dashboard-session.js';
import {
  downTaint,
  servedApis,
  trainingDone,
  troubledFleet,
  webDegraded,
  webhookError,
} from './troubled-fleet.js';
import { clusterObjects, writeReport } from './dashboard-fixture.js';
import { refLabel } from '../../src/core/model/object-ref.js';

interface TemplateItem {
  label: string;
  key: string;
  health: string;
  sync: string;
  why: string;
  reason?: string;
}

interface TemplateDoc {
  label: string;
  explanation: { clusters: { cluster: string; reason: string; eviction?: { until?: string } }[] };
}

let repo: FleetRepo;
let s: DashboardSession;
const key = (label: string) => `apps/${label}`;
const templateHash = (label: string) => `#/template/${encodeURIComponent(key(label))}`;

before(async () => {
  if (skipReason) return;
  repo = troubledFleet();
  s = await openDashboard(repo.path, 'dashboard-pages');
});

after(async () => {
  if (skipReason) return;
  assert.equal(await s?.close(), 0, 'gitfleet ui exits 0 on SIGTERM');
  removeFleetRepos();
  removeTempDirs();
});

/** The bindings records that hold an eviction task from the cluster (git grep of the bindings branch). */
function evictedFrom(cluster: string): number {
  const out = git(repo, [
    'grep',
    '-l',
    `fromCluster: ${cluster}`,
    'refs/heads/gitfleet/bindings',
    '--',
    '*.yaml',
  ]);
  return out.split('\n').filter((l) => l !== '').length;
}

test(
  'the templates overview shows each template with its health and sync badges and the reason it is not Healthy',
  { skip: skipReason },
  async () => {
    await s.open('#/templates', '#templates');
    const doc = await s.api<{ templates: TemplateItem[] }>('templates');
    const rows = await textsOf(s.page, '#templates tbody tr');
    assert.equal(rows.length, doc.templates.length, 'one line per template');
    const row = (label: string) => s.page.locator(`#templates tr[data-template="${label}"]`);
    const badges = async (label: string) =>
      row(label)
        .locator('[data-badge]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-badge')));
    assert.deepEqual(await badges('Deployment/shop/web'), ['Degraded', 'Synced']);
    assert.match((await row('Deployment/shop/web').textContent()) ?? '', new RegExp(escape(webDegraded)));
    assert.deepEqual(await badges('Deployment/shop/api'), ['Unknown', 'OutOfSync']);
    assert.match((await row('Deployment/shop/api').textContent()) ?? '', new RegExp(escape(webhookError)));
    assert.deepEqual(await badges('Deployment/shop/batch'), ['NotPlaced', 'NotPlaced']);
    for (const t of doc.templates.filter((t) => t.health !== 'Healthy'))
      assert.ok(t.reason, `${t.label} is ${t.health}: the overview says why`);
    // The chips count what the document holds, and filter by it.
    const notHealthy = doc.templates.filter((t) => t.health !== 'Healthy' || t.why !== 'Healthy').length;
    assert.match(
      (await s.page.textContent('button[data-chip="problems"]')) ?? '',
      new RegExp(`${notHealthy}$`),
    );
    await s.shoot('templates');
    await s.page.click('button[data-chip="problems"]');
    await s.page.waitForSelector('button[data-chip="problems"].on');
    assert.equal((await textsOf(s.page, '#templates tbody tr')).length, notHealthy);
    await s.shoot('templates-not-healthy');
    await s.page.click('button[data-chip="all"]');
  },
);

test(
  'the cluster page shows its conditions, its taints with the commit that added each, capacity, evictions and rollouts',
  { skip: skipReason },
  async () => {
    await s.open('#/cluster/gcp-eu-prod', '#cluster-page');
    assert.match(
      (await s.page.textContent('#cluster-why')) ?? '',
      /KubeletNotReady: 2 of 3 nodes are NotReady/,
    );
    assert.match(
      (await s.page.textContent('#cluster-conditions tr[data-condition="Ready"]')) ?? '',
      /False.*KubeletNotReady/,
    );
    // Each hub taint names the bindings commit whose Gitfleet-Taint trailer added it.
    for (const taint of [downTaint, 'cluster.karmada.io/not-ready:NoSchedule']) {
      const added = git(repo, [
        'log',
        '-1',
        '--format=%H',
        `--grep=^Gitfleet-Taint: gcp-eu-prod +${taint}:`,
        'refs/heads/gitfleet/bindings',
      ]);
      assert.ok(added, `git log finds the commit that added ${taint}`);
      const text = (await s.page.textContent(`#cluster-taints tr[data-taint="${taint}"]`)) ?? '';
      assert.match(text, new RegExp(`the hub.*${added.slice(0, 7)}`), text);
    }
    assert.match(
      (await s.page.textContent(`#cluster-taints tr[data-taint="${downTaint}"]`)) ?? '',
      /ClusterTaintPolicy\/down-no-execute/,
    );
    assert.match((await s.page.textContent('#cluster-capacity tr[data-resource="cpu"]')) ?? '', /cpu\s*12/);
    assert.equal((await textsOf(s.page, '#cluster-evictions tbody tr')).length, evictedFrom('gcp-eu-prod'));
    assert.match((await s.page.textContent('#cluster-rollouts tr[data-strategy="shop/api"]')) ?? '', /Held/);
    await s.shoot('cluster-not-ready', true);
    // A taint written in the Cluster's registration names the source commit that wrote it.
    await s.open('#/cluster/onprem-gpu', '#cluster-page');
    const first = git(repo, ['rev-list', '--max-parents=0', 'refs/heads/main']);
    const spec = (await s.page.textContent('#cluster-taints tr[data-taint="dedicated:NoSchedule"]')) ?? '';
    assert.match(
      spec,
      new RegExp(`dedicated=gpu:NoSchedule.*Fleet Author.*${first.slice(0, 7)} initial fleet`),
      spec,
    );
    // What is placed there: the objects its cluster branch holds; what the taint keeps off, and why.
    const placed = await s.page
      .locator('#cluster-objects tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-template')));
    assert.deepEqual(placed.sort(), clusterObjects(repo, 'onprem-gpu').map(refLabel).sort());
    assert.equal(
      await s.page.getAttribute('#cluster-refused tr[data-template="Deployment/shop/api"]', 'data-reason'),
      'TaintNotTolerated',
    );
    await s.shoot('cluster-spec-taint', true);
  },
);

test(
  'the template page shows each cluster, the eviction, the rollout that holds it and the live status',
  { skip: skipReason },
  async () => {
    await s.open(templateHash('Deployment/shop/api'), '#template-page');
    assert.match(
      (await s.page.textContent('#template-rows tr[data-cluster="aws-us-prod"]')) ?? '',
      new RegExp(escape(webhookError)),
    );
    assert.match(
      (await s.page.textContent('#template-evictions tr[data-cluster="gcp-eu-prod"]')) ?? '',
      /TaintUntolerated.*TaintManager.*Gracefully/,
    );
    for (const held of ['aws-us-prod', 'gcp-eu-staging'])
      assert.match(
        (await s.page.textContent(`#template-rollout-clusters tr[data-cluster="${held}"]`)) ?? '',
        /Held.*waiting for step 1/,
      );
    assert.match(
      (await s.page.textContent('#template-live .live[data-cluster="aws-us-prod"]')) ?? '',
      /apply failed/,
    );
    // Problems first: the clusters it is placed on and not Healthy, then the one it is being
    // evicted from, then the Healthy ones, then those it is not placed on.
    const order = await s.page
      .locator('#template-rows tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-cluster')));
    const api = await s.api<TemplateDoc & { rows: { cluster: string; placed: boolean }[] }>(
      `template?key=${encodeURIComponent(key('Deployment/shop/api'))}`,
    );
    const reasonOf = (c: string | null) => api.explanation.clusters.find((e) => e.cluster === c)?.reason;
    const placedOn = (c: string | null) => api.rows.some((r) => r.cluster === c && r.placed);
    const group = (c: string | null) =>
      reasonOf(c) === 'Evicting' ? 1 : !placedOn(c) ? 3 : reasonOf(c) === 'Healthy' ? 2 : 0;
    const groups = order.map(group);
    assert.deepEqual(
      groups,
      [...groups].sort(),
      `rows in the order problems, evicting, Healthy, not placed: ${order.join(', ')}`,
    );
    assert.deepEqual(new Set(groups), new Set([0, 1, 2, 3]), 'the api has a cluster of each kind');
    await s.shoot('template-held-evicted', true);
    await s.open(templateHash('Deployment/shop/web'), '#template-page');
    const live = (await s.page.textContent('#template-live .live[data-cluster="aws-eu-prod"]')) ?? '';
    assert.match(live, new RegExp(escape(webDegraded)));
    assert.match(live, /readyReplicas: 1/);
    await s.shoot('template-degraded', true);
    // A Job's reflected status keeps its conditions: the page lists them, as the agent reported them.
    await s.open('#/template/' + encodeURIComponent('batch/Job/ml/train-recommender'), '#template-page');
    const conditions = await textsOf(
      s.page,
      '#template-live .live[data-cluster="onprem-gpu"] table.conditions tbody tr',
    );
    assert.deepEqual(
      conditions,
      trainingDone.conditions.map((c) => `${c.type}${c.status}${c.reason}${c.message ?? ''}`),
    );
    assert.match(
      (await s.page.textContent('#template-live .live[data-cluster="onprem-gpu"] .fields')) ?? '',
      /succeeded: 1/,
    );
    await s.shoot('template-job-conditions', true);
    await s.open(templateHash('Deployment/shop/batch'), '#template-page');
    assert.equal(await s.page.textContent('#template-placed'), 'no cluster');
    assert.ok(await s.page.textContent('#template-reason'), 'a template placed nowhere says why');
    await s.shoot('template-not-placed', true);
  },
);

test(
  'the rollout and eviction lists show every rollout and eviction task the bindings branch records',
  { skip: skipReason },
  async () => {
    await s.open('#/rollouts', '#rollouts-page');
    const strategy = s.page.locator('.card[data-strategy="shop/api"]');
    assert.match((await strategy.textContent()) ?? '', /Progressing.*step 1 of 2/);
    assert.match((await strategy.textContent()) ?? '', /Selects Deployment\/shop\/api/);
    assert.match((await strategy.locator('tr[data-cluster="aws-eu-prod"]').textContent()) ?? '', /Moved/);
    await s.shoot('rollouts');
    await s.open('#/evictions', '#evictions-page');
    const rows = await textsOf(s.page, '#evictions tbody tr');
    assert.equal(rows.length, evictedFrom('gcp-eu-prod'));
    for (const r of rows) assert.match(r, /gcp-eu-prod.*TaintUntolerated/);
    // Until when each copy stays: the time the template's explanation gives for that cluster.
    const { evictions } = await s.api<{ evictions: { key: string; cluster: string }[] }>('evictions');
    for (const e of evictions) {
      const doc = await s.api<TemplateDoc>(`template?key=${encodeURIComponent(e.key)}`);
      const until = doc.explanation.clusters.find((c) => c.cluster === e.cluster)?.eviction?.until;
      assert.ok(until, `${e.key} on ${e.cluster}: the explanation says until when`);
      const cell = s.page.locator(`#evictions tr[data-template="${doc.label}"] td:nth-child(7) time`);
      assert.equal(await cell.getAttribute('datetime'), until);
    }
    assert.equal(
      await s.page.textContent('#nav-evictions'),
      String(rows.length),
      'the navigation counts them',
    );
    await s.shoot('evictions');
    await s.page.click('#evictions tr[data-template="Deployment/shop/web"] td:nth-child(3)');
    await s.page.waitForSelector(`body[data-route="${templateHash('Deployment/shop/web')}"] #template-page`);
  },
);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test(
  "an agent's report reaches the open overview in place: the badge changes, the search and the selected line stay",
  { skip: skipReason },
  async () => {
    await s.open('#/templates', '#templates');
    await s.page.evaluate('window.notReloaded = true');
    await s.page.keyboard.press('/');
    await s.page.keyboard.type('shop/web');
    await s.page.waitForSelector('#templates-page[data-query="shop/web"]');
    const web = templateHash('Deployment/shop/web');
    await s.page.keyboard.press('ArrowDown');
    const selected = () => s.page.evaluate('document.activeElement?.dataset?.href');
    for (let i = 0; i < 10 && (await selected()) !== web; i++) await s.page.keyboard.press('j');
    assert.equal(await selected(), web, 'j reaches the line of Deployment/shop/web');
    const badge = '#templates tr[data-template="Deployment/shop/web"] [data-badge]';
    assert.equal(await s.page.getAttribute(badge, 'data-badge'), 'Degraded');
    // aws-eu-prod's agent reports web Healthy now: no hub pass, the status branch alone moves.
    writeReport(repo, 'aws-eu-prod', {
      ready: 'True',
      version: 'v1.31.2',
      applied: true,
      health: () => 'Healthy',
      apis: servedApis(repo),
    });
    await s.page.waitForFunction(
      (selector) => {
        type Doc = { querySelector(s: string): { getAttribute(n: string): string | null } | null };
        const doc = (globalThis as unknown as { document: Doc }).document;
        return doc.querySelector(selector)?.getAttribute('data-badge') !== 'Degraded';
      },
      badge,
      { timeout: 60_000 },
    );
    assert.equal(await s.page.evaluate('window.notReloaded'), true, 'the page was not reloaded');
    assert.equal(await s.page.inputValue('#search'), 'shop/web');
    assert.equal(
      await s.page.evaluate('document.activeElement?.dataset?.href'),
      web,
      'the selected line keeps the focus',
    );
    await s.shoot('templates-live');
  },
);

test(
  "the commit page says why the change leaves templates placed nowhere or held, as gitfleet diff's comment does",
  { skip: skipReason },
  async () => {
    // HEAD~1 added the batch job for the edge and the ServiceImport no member serves.
    const rev = 'HEAD~1';
    await s.open(`#/commit/${rev}`, '#commit-diff');
    const doc = await s.api<{ why: { template: string; reason: string; message: string }[] }>(
      `commit?rev=${rev}`,
    );
    assert.ok(doc.why.some((w) => w.template === 'Deployment/shop/batch' && w.reason === 'NoClusterFit'));
    assert.ok(doc.why.some((w) => w.template === 'ServiceImport/shop/api' && w.reason === 'NoClusterFit'));
    for (const w of doc.why) {
      const item = s.page.locator(`#commit-why li[data-template="${w.template}"]`);
      assert.equal(await item.getAttribute('data-reason'), w.reason);
      assert.equal(await item.textContent(), `${w.reason}${w.template}: ${w.message}`);
    }
    await s.shoot('commit-why', true);
  },
);

test(
  'every page of the fleet in trouble reads at 1366×768 and 1920×1080: nothing wider than the window, dates on one line',
  { skip: skipReason },
  async () => {
    const pages: [string, string][] = [
      ['#/templates', '#templates'],
      ['#/clusters', '#clusters'],
      ['#/cluster/gcp-eu-prod', '#cluster-page'],
      [templateHash('Deployment/shop/api'), '#template-page'],
      ['#/matrix', '#matrix-page[data-drawn]'],
      ['#/rollouts', '#rollouts-page'],
      ['#/evictions', '#evictions-page'],
      ['#/commit/HEAD~1', '#commit-diff'],
    ];
    await assertEveryPageReads(s, pages);
  },
);
