// The agent judges a Deployment's progress deadline as of after its own apply of the spec (issue
// #27 point 6): the pass that applies a spec remembers the generation the cluster gave it and the
// time (the loop's clock); a ProgressDeadlineExceeded reported sooner after that than the
// Deployment's deadline is the controller's clock from before the apply, reported Progressing.
// The fake cluster does not model generation, so the test plays the API server's part: the
// stored generation moves with the spec.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime } from '../../../src/core/model/rfc3339.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { aDeployment, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';

const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };

function webAt(image: string): KubeObject {
  const d = aDeployment('shop', 'web');
  const spec = d.spec as {
    progressDeadlineSeconds?: number;
    template: { spec: { containers: { image: string }[] } };
  };
  spec.progressDeadlineSeconds = 10;
  spec.template.spec.containers[0]!.image = image;
  return d;
}

/** Stores what the deployment controller writes: the generation seen, and the timed-out condition at `atMs`. */
function timedOut(object: KubeObject, atMs: number): void {
  const generation = object.metadata.generation;
  object.status = {
    observedGeneration: generation,
    replicas: 2,
    updatedReplicas: 1,
    availableReplicas: 1,
    conditions: [
      {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: 'ReplicaSet "web-1" has timed out progressing.',
        lastUpdateTime: formatTime(atMs),
      },
    ],
  };
}

async function healthOfWeb(agent: ReturnType<typeof fakeAgent>): Promise<string | undefined> {
  const report = await agent.report();
  return report?.objects.find((o) => o.ref.name === 'web' && o.ref.kind === 'Deployment')?.health;
}

test('a deadline the controller reports exceeded 3 s after the agent applied a 10 s-deadline spec is Progressing; 12 s after, Degraded', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace('shop'), webAt('web:1')]);
  await agent.pass();
  agent.fake.edit(web, (o) => (o.metadata.generation = 1));

  // The revert: the API server gives the new spec generation 2 as it stores it.
  await commitClusterBranch(agent.gitdir, agent.cluster, [aNamespace('shop'), webAt('web:0')]);
  const applyNext = agent.fake.apply.bind(agent.fake);
  agent.fake.apply = async (manifest, opts) => {
    const result = await applyNext(manifest, opts);
    if (opts.dryRun || result.type !== 'ok') return result;
    const stored = agent.fake.edit(web, (o) => (o.metadata.generation = 2));
    return { ...result, live: stored };
  };
  const appliedAt = agent.clock.now();
  await agent.pass();

  agent.clock.advance(3000);
  agent.fake.edit(web, (o) => timedOut(o, appliedAt + 3000));
  await agent.pass();
  assert.equal(await healthOfWeb(agent), 'Progressing', 'timed out sooner than its deadline after the apply');

  agent.clock.advance(9000);
  agent.fake.edit(web, (o) => timedOut(o, appliedAt + 12_000));
  await agent.pass();
  assert.equal(await healthOfWeb(agent), 'Degraded', 'timed out its full deadline after the apply');
});
