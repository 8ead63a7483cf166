// Drift correction in the running agent loop: an object deleted by hand comes back and a field
// changed by hand is reverted within seconds, a field the manifest does not set (an HPA's
// replicas) is left to whoever set it, and an object something keeps changing back is given up
// on for a while and reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { runAgentLoop } from '../../src/loops/agent/agent-loop.js';
import { kubeClusterApi } from '../../src/loops/agent/kube-cluster-api.js';
import type { AgentPassResult } from '../../src/loops/agent/run-agent-pass.js';
import { systemClock } from '../../src/loops/runtime/clock.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { aConfigMap, aDeployment, commitClusterBranch, kubectl, refOf, testAgent } from './agent-fixture.js';
import { eventually, inNamespace, testKubeConfig } from './test-clusters.js';

/** A Deployment without spec.replicas, as the hub renders an HPA's target. */
function hpaTarget(ns: string, name: string): KubeObject {
  const d = aDeployment(ns, name);
  const { replicas: _replicas, ...spec } = d.spec as Record<string, unknown>;
  return { ...d, spec };
}

test('the agent loop puts back what is deleted or changed by hand, leaves fields it does not set, and backs off a fight', async (t) => {
  const agent = testAgent();
  agent.memory.fight = { limit: 2, windowMs: 60_000, backoffMs: 60_000 };
  let stopLoop: () => void = () => undefined;
  const stop = new Promise<void>((resolve) => (stopLoop = resolve));
  const results: AgentPassResult[] = [];
  let loop: Promise<void> = Promise.resolve();
  t.after(async () => {
    stopLoop();
    await loop;
    await agent.dispose();
  });
  await inNamespace(testKubeConfig(), 'agent-drift', async (ns) => {
    const objects = [aConfigMap(ns, 'settings', { mode: 'git' }), hpaTarget(ns, 'web')];
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    loop = runAgentLoop({
      pass: () => agent.pass(),
      client: kubeClusterApi(agent.client),
      cluster: agent.cluster,
      memory: agent.memory,
      // No resync and no ref watch: only the drift watches can start a pass after the first.
      triggers: [],
      clock: systemClock(),
      random: Math.random,
      log: silentLogger(),
      report: (r) => results.push(r),
      stop,
      debounceMs: 200,
    });
    await eventually(
      'the first pass',
      async () => (results.some((r) => r.fullyApplied) ? true : undefined),
      30_000,
    );
    const settings = refOf(objects[0]!);
    const web = refOf(objects[1]!);

    await t.test('a Deployment deleted by hand comes back', async () => {
      const before = await agent.client.get(web);
      kubectl(['delete', 'deployment', 'web', '-n', ns, '--wait=false']);
      await eventually(
        'the Deployment to be recreated',
        async () => {
          const live = await agent.client.get(web);
          return live &&
            live.metadata['uid'] !== before?.metadata['uid'] &&
            !live.metadata['deletionTimestamp']
            ? live
            : undefined;
        },
        20_000,
      );
    });

    await t.test('a field changed by hand is reverted', async () => {
      kubectl([
        'patch',
        'configmap',
        'settings',
        '-n',
        ns,
        '--type=merge',
        '-p',
        '{"data":{"mode":"by-hand"}}',
      ]);
      await eventually(
        'the ConfigMap to be reverted',
        async () =>
          ((await agent.client.get(settings))?.data as { mode?: string })?.mode === 'git' ? true : undefined,
        20_000,
      );
    });

    await t.test('replicas set by another writer on a manifest without replicas are left alone', async () => {
      kubectl(['scale', 'deployment', 'web', '-n', ns, '--replicas=3']);
      const passesBefore = results.length;
      // The scale is a change of an owned object: it starts a pass, which must not undo it.
      await eventually(
        'a pass after the scale',
        async () => (results.length > passesBefore ? true : undefined),
        20_000,
      );
      const live = await agent.client.get(web);
      assert.equal((live?.spec as { replicas?: number }).replicas, 3);
    });

    await t.test(
      'an object changed back again and again is given up on for a while, and reported',
      async () => {
        agent.memory.corrections.clear(); // the corrections of the earlier steps do not count here
        for (let round = 1; round <= 3; round++) {
          kubectl([
            'patch',
            'configmap',
            'settings',
            '-n',
            ns,
            '--type=merge',
            '-p',
            `{"data":{"mode":"fight-${round}"}}`,
          ]);
          if (round < 3) {
            await eventually(
              `correction ${round}`,
              async () =>
                ((await agent.client.get(settings))?.data as { mode?: string })?.mode === 'git'
                  ? true
                  : undefined,
              20_000,
            );
          }
        }
        const paused = await eventually(
          'the fight to be reported',
          async () => results.findLast((r) => r.objects.some((o) => o.action === 'driftPaused')),
          20_000,
        );
        assert.match(
          paused.objects.find((o) => o.ref.name === 'settings')?.message ?? '',
          /drift correction paused: re-applied 2 times/,
        );
        assert.equal(
          ((await agent.client.get(settings))?.data as { mode?: string })?.mode,
          'fight-3',
          'left as the other writer set it',
        );
        const report = await agent.report();
        assert.equal(report?.conditions?.find((c) => c.type === 'DriftCorrected')?.reason, 'BackedOff');
      },
    );
  });
});
