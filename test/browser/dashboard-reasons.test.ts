// Every reason the dashboard shows, one test each, on the fleet in trouble (troubled-fleet.ts:
// real hub passes, the agents' reports as they write them): the template page's line for the
// cluster carries the reason and the very message `gitfleet status --template <it> -o json`
// prints (the command run as a user runs it, on the same repository), and the overview's line of
// the template the template's reason and message: the page and the command line cannot
// disagree. A screenshot of each line goes to test-output/dashboard-reasons/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import type { ClusterExplanation, ExplanationReason } from '../../src/core/status/explanation.js';
import { gitEnv, removeFleetRepos, repoRoot, type FleetRepo } from '../loops/hub/hub-fixture.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { skipReason } from './launch-chromium.js';
import { openDashboard, type DashboardSession } from './dashboard-session.js';
import { troubledFleet } from './troubled-fleet.js';

/** One template on one cluster, and the reason the fleet gives it there. */
const cases: { template: string; cluster: string; reason: ExplanationReason; what: string }[] = [
  {
    template: 'Deployment/shop/api',
    cluster: 'aws-us-prod',
    reason: 'ApplyFailed',
    what: "the agent's apply error",
  },
  { template: 'Deployment/shop/web', cluster: 'aws-eu-prod', reason: 'Degraded', what: 'the health message' },
  {
    template: 'Deployment/shop/api',
    cluster: 'gcp-eu-staging',
    reason: 'HeldByRollout',
    what: 'the rollout step it waits for',
  },
  {
    template: 'Deployment/shop/api',
    cluster: 'gcp-eu-prod',
    reason: 'Evicting',
    what: 'evicted since, and until when its copy stays',
  },
  {
    template: 'Deployment/shop/api',
    cluster: 'onprem-gpu',
    reason: 'TaintNotTolerated',
    what: 'the taint and the toleration to add',
  },
  {
    template: 'ConfigMap/shop/api-config',
    cluster: 'gcp-eu-prod',
    reason: 'ClusterNotReady',
    what: "the cluster's Ready condition",
  },
  {
    template: 'ServiceImport/shop/api',
    cluster: 'aws-eu-prod',
    reason: 'ApiNotServed',
    what: 'the missing CRD',
  },
  {
    template: 'Deployment/shop/batch',
    cluster: 'gcp-eu-staging',
    reason: 'ExcludedByAffinity',
    what: 'the clusterAffinity that leaves it out',
  },
  {
    template: 'Service/shop/api',
    cluster: 'gcp-eu-staging',
    reason: 'Progressing',
    what: 'becoming healthy',
  },
  { template: 'Deployment/shop/api', cluster: 'aws-eu-prod', reason: 'Healthy', what: 'applied and Healthy' },
];

/** A template as `gitfleet status --template <it> -o json` prints it. */
interface StatusTemplate {
  template: string;
  key: string;
  reason: ExplanationReason;
  message?: string;
  explanation: ClusterExplanation[];
}

let repo: FleetRepo;
let s: DashboardSession;
/** What `gitfleet status` says of each template of the cases, by label. */
const said = new Map<string, StatusTemplate>();

before(async () => {
  if (skipReason) return;
  repo = troubledFleet();
  for (const template of new Set(cases.map((c) => c.template))) {
    const args = ['status', '--repo', repo.path, '--template', template, '-o', 'json'];
    const out = execFileSync(process.execPath, [join(repoRoot, 'bin/gitfleet.js'), ...args], { env: gitEnv });
    const found = (JSON.parse(out.toString()) as { templates: StatusTemplate[] }).templates;
    assert.equal(found.length, 1, `gitfleet status --template ${template} prints it`);
    said.set(template, found[0]!);
  }
  s = await openDashboard(repo.path, 'dashboard-reasons');
});

after(async () => {
  if (skipReason) return;
  assert.equal(await s?.close(), 0);
  removeFleetRepos();
  removeTempDirs();
});

for (const c of cases)
  test(
    `${c.template} on ${c.cluster}: the template page says ${c.reason}, with ${c.what}`,
    { skip: skipReason },
    async () => {
      const t = said.get(c.template)!;
      const want = t.explanation.find((e) => e.cluster === c.cluster);
      assert.equal(want?.reason, c.reason, `the fixture gives ${c.template} on ${c.cluster} ${c.reason}`);
      await s.open(`#/template/${encodeURIComponent(t.key)}`, '#template-rows');
      const row = s.page.locator(`#template-rows tr[data-cluster="${c.cluster}"]`);
      assert.equal(await row.getAttribute('data-reason'), c.reason);
      assert.equal(await row.locator('td:last-child').textContent(), `${c.reason}${want!.message}`);
      await row.screenshot({ path: join(s.shots, `${c.reason}-${c.cluster}.png`) });
      // The overview's line of the template says the template's reason and message.
      await s.open('#/templates', '#templates');
      const line = s.page.locator(`#templates tr[data-template="${c.template}"]`);
      assert.equal(await line.getAttribute('data-why'), t.reason);
      if (t.reason !== 'Healthy') assert.equal(await line.locator('td.why').getAttribute('title'), t.message);
      else assert.equal(t.message, undefined);
    },
  );
