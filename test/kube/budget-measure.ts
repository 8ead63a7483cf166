// What the measured budget tests share (budget-measured*.test.ts): the fleet, the hub and
// agent started as processes, the server's requests counted by who sent them, and the model's
// settings at the periods the loops really ran.
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { SeenRequest } from '../git-server/start-git-server.js';
import { repoRoot } from '../loops/hub/hub-fixture.js';
import type { TrafficSettings } from '../../src/core/budget/traffic-settings.js';
import { measuredWork } from '../../src/core/budget/model-latency.js';

const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** The fleet: one cluster (keyed: its registration names `signingKey`), a ConfigMap placed on it. */
export function fleetFiles(ns: string, cluster: string, signingKey?: string): Record<string, string> {
  return {
    'clusters/cluster.yaml': `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: { name: ${cluster}${signingKey ? `, annotations: { gitfleet.io/signing-key: '${signingKey}' }` : ''} }\nspec: { syncMode: Pull }\n`,
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${ns} }\n`,
    'apps/settings.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: ${ns} }\ndata: { level: info }\n`,
    'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: settings, namespace: ${ns} }
spec:
  resourceSelectors:
  - { apiVersion: v1, kind: ConfigMap, name: settings }
  placement: { clusterAffinity: { clusterNames: [${cluster}] } }
`,
  };
}

/** Starts `gitfleet` with the arguments; its output lines are collected. */
export function startCli(args: string[], cache: string) {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/gitfleet.js'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, XDG_CACHE_HOME: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: string[] = [];
  let pending = '';
  const take = (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      children.delete(child);
      resolve();
    }),
  );
  return { child, lines, exited };
}

/** Who sent a request (the agent reaches the repository by its own name) and what it was. */
export function classify(r: SeenRequest): { who: 'hub' | 'agent'; kind: 'read' | 'push' } {
  const who = r.path.startsWith('/agent.git') ? 'agent' : 'hub';
  // Every upload-pack request, advertisement or POST, is a read; a receive-pack POST is a push.
  const push =
    r.method === 'POST' ? r.path.endsWith('/git-receive-pack') : r.query.includes('git-receive-pack');
  return { who, kind: push ? 'push' : 'read' };
}

// Short periods, so a stretch of 20 s holds tens of polls and ten heartbeats; the model is the
// same formula at any period.
export const hubFlags = ['--interval', '2s'];
export const agentFlags = ['--interval', '5s', '--branch-poll', '500ms', '--cluster-lease-duration', '8s'];

export interface Measured {
  seconds: number;
  hubReads: number;
  agentReads: number;
  pushes: number;
  hubPushes: number;
  /** Mean time the server took to answer each kind, in seconds: what stretches each loop's period. */
  answer: { hubRead: number; agentRead: number; push: number };
}

/** Counts the requests by who sent them and their kind, with the mean answer times. */
export function measure(requests: readonly SeenRequest[], seconds: number): Measured {
  const m: Measured = {
    seconds,
    hubReads: 0,
    agentReads: 0,
    pushes: 0,
    hubPushes: 0,
    answer: { hubRead: 0, agentRead: 0, push: 0 },
  };
  const took: Record<keyof Measured['answer'], number[]> = { hubRead: [], agentRead: [], push: [] };
  for (const r of requests) {
    const { who, kind } = classify(r);
    if (kind === 'push') {
      m.pushes++;
      if (who === 'hub') m.hubPushes++;
      else took.push.push(r.ms ?? 0);
    } else if (who === 'hub') {
      m.hubReads++;
      took.hubRead.push(r.ms ?? 0);
    } else {
      m.agentReads++;
      took.agentRead.push(r.ms ?? 0);
    }
  }
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length / 1000);
  m.answer = { hubRead: mean(took.hubRead), agentRead: mean(took.agentRead), push: mean(took.push) };
  return m;
}

/** The requests that arrived within [from, to) by the server's clock, and the window in seconds. */
export function windowOf(requests: readonly SeenRequest[], from: number, to: number) {
  return { seen: requests.filter((r) => r.at >= from && r.at < to), seconds: (to - from) / 1000 };
}

/** Asserts measured / predicted lies within 1.5x either way. */
export function withinOneAndAHalf(what: string, measured: number, predicted: number): void {
  const ratio = measured / predicted;
  assert.ok(
    ratio >= 1 / 1.5 && ratio <= 1.5,
    `${what}: measured ${measured.toFixed(3)}, predicted ${predicted.toFixed(3)} (×${ratio.toFixed(2)})`,
  );
}

/** The model's settings at the given periods (seconds), as the tests' flags set the rest. */
export function settingsOf(p: {
  hub: number;
  agent: number;
  poll: number;
  heartbeat: number;
}): TrafficSettings {
  return {
    hub: { intervalSeconds: p.hub, webhook: false, monitorPeriodSeconds: 5, monitorGracePeriodSeconds: 40 },
    agent: {
      intervalSeconds: p.agent,
      branchPollSeconds: p.poll,
      heartbeatSeconds: p.heartbeat,
      statusUpdateFrequencySeconds: 10,
      safetyPollSeconds: 300,
    },
    dashboards: { count: 0, refreshSeconds: 10 },
    doorbell: false,
    statusRepositories: 0,
    renderRepositories: 0,
    work: measuredWork,
  };
}
