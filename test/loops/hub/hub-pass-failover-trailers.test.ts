// The failover stage's part of "is a pass needed?": the monitor's verdicts and the recorded
// wake-at time, read from the bindings head's trailers (hub-pass.ts, find-rendered-already.ts).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVerdict } from '../../../src/core/failover/monitored-status.js';
import { newFailoverMemory } from '../../../src/core/failover/eviction-request.js';
import { defaultFailoverSettings } from '../../../src/core/model/failover.js';
import type { HubFailover } from '../../../src/loops/hub/hub-failover.js';
import {
  commitReadyReport,
  exampleFleetRepo,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const bindings = 'refs/heads/gitfleet/bindings';
const passTime = 1_700_000_100_000;

function failoverWith(verdicts: ReadonlyMap<string, ClusterVerdict>): HubFailover {
  return { settings: defaultFailoverSettings, memory: newFailoverMemory(), verdicts: () => verdicts };
}

const unknown: ClusterVerdict = {
  status: 'Unknown',
  reason: 'ClusterStatusUnknown',
  message: 'no heartbeat for 40s',
};

function headMessage(repo: FleetRepo): string {
  return git(repo, ['log', '-1', '--format=%B', bindings]);
}

/** Puts a commit with the bindings head's tree and message plus one trailer line on top of it. */
function addBindingsTrailer(repo: FleetRepo, line: string): void {
  const message = `${headMessage(repo).trimEnd()}\n${line}\n`;
  const commit = git(repo, ['commit-tree', `${bindings}^{tree}`, '-p', bindings, '-m', message]);
  git(repo, ['update-ref', bindings, commit]);
}

test('a verdict of the monitor makes a pass over a rendered source commit; the bindings commit records it', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  const judged = new Map([['onprem-gpu', unknown]]);
  const first = rendered(await hubPass(repo, { failover: failoverWith(judged) }));
  assert.equal(first.bindings.type, 'updated');
  assert.match(headMessage(repo), /^Gitfleet-Cluster-Judged: onprem-gpu=Unknown$/m);
  assert.equal((await hubPass(repo, { failover: failoverWith(judged) })).type, 'upToDate');
  // Without a monitor (`hub --once`, a restart within its grace) the recorded judgement stands
  // while the cluster has not reported since (carry-recorded-verdicts.ts): nothing to do.
  assert.equal((await hubPass(repo)).type, 'upToDate');
  // Once it has reported, a pass records that none stands.
  await commitReadyReport(repo, 'onprem-gpu', 'True', { kubernetesVersion: 'v1.34.4' });
  rendered(await hubPass(repo));
  assert.doesNotMatch(headMessage(repo), /Gitfleet-Cluster-Judged/);
  assert.equal((await hubPass(repo)).type, 'upToDate');
});

test('a recorded wake-at time that has come makes a pass; one still ahead does not', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  addBindingsTrailer(repo, `Gitfleet-Wake-At: ${new Date(passTime + 60_000).toISOString()}`);
  assert.equal((await hubPass(repo)).type, 'upToDate');
  addBindingsTrailer(repo, `Gitfleet-Wake-At: ${new Date(passTime - 1).toISOString()}`);
  rendered(await hubPass(repo));
  // The stubbed producers set no new time: the commit of that pass records none.
  assert.doesNotMatch(headMessage(repo), /Gitfleet-Wake-At/);
  assert.equal((await hubPass(repo)).type, 'upToDate');
});

test('a wake-at trailer that does not parse counts as due, so a damaged record never stalls decisions', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  addBindingsTrailer(repo, 'Gitfleet-Wake-At: soon');
  rendered(await hubPass(repo));
});
