// Every reason the dashboard shows, one test each, on the fleet in trouble (troubled-fleet.ts:
// real hub passes, the agents' reports as they write them): the template page's line for the
// cluster carries the reason and the very message of core/status/explain-template.ts (the one
// `gitfleet status --template` prints), computed here apart from the server from what Git holds
// (readFleetStatus + templateExplainer); the overview's line of the template carries the
// template's reason and message. A screenshot of each line goes to test-output/dashboard-reasons/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { refLabel } from '../../src/core/model/object-ref.js';
import { templateExplainer } from '../../src/core/status/explain-template.js';
import type { ExplanationReason, TemplateExplanation } from '../../src/core/status/explanation.js';
import { readFleetStatus } from '../../src/loops/shared/read-fleet-status.js';
import { removeFleetRepos, type FleetRepo } from '../loops/hub/hub-fixture.js';
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

let repo: FleetRepo;
let s: DashboardSession;
let explained: Map<string, TemplateExplanation>;

before(async () => {
  if (skipReason) return;
  repo = troubledFleet();
  // What Git says, read and explained apart from the dashboard process, as `gitfleet status` does.
  const data = await readFleetStatus({ dir: repo.path, objects: 'always' });
  const explain = templateExplainer(data);
  explained = new Map(data.bindings.map((b) => [refLabel(b.resource), explain(b)]));
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
      const t = explained.get(c.template);
      assert.ok(t, `${c.template} has a binding record`);
      const want = t.clusters.find((e) => e.cluster === c.cluster);
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
    },
  );
