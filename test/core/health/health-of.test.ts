import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { healthOf, type HealthStatus } from '../../../src/core/health/health-of.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';

// One live object per file, as gitops-engine's health tests keep them:
// fixtures/<kind>/<expected health>[-<state>].yaml, e.g. deployment/degraded-progress-deadline-exceeded.yaml.
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../../test/core/health/fixtures');

const expectedByPrefix: Record<string, HealthStatus> = {
  healthy: 'Healthy',
  progressing: 'Progressing',
  degraded: 'Degraded',
  unknown: 'Unknown',
};

interface Case {
  name: string;
  given: KubeObject;
  want: HealthStatus;
}

function loadCases(): Case[] {
  const cases: Case[] = [];
  for (const kind of readdirSync(fixtures).sort()) {
    for (const file of readdirSync(join(fixtures, kind)).sort()) {
      const want = expectedByPrefix[file.split(/[-.]/)[0] ?? ''];
      if (!want) throw new Error(`${kind}/${file}: the file name must start with the expected health`);
      const given = yaml.load(readFileSync(join(fixtures, kind, file), 'utf8')) as KubeObject;
      const state = file.replace(/\.yaml$/, '').replace(/-/g, ' ');
      cases.push({ name: `a ${kind} in state "${state}" is ${want}`, given, want });
    }
  }
  return cases;
}

const cases = loadCases();

for (const { name, given, want } of cases) {
  test(name, () => {
    const got = healthOf(given);
    assert.equal(got.status, want, `message: ${got.message ?? '(none)'}`);
    // Anything short of Healthy tells the user why.
    if (want !== 'Healthy') assert.ok(got.message, 'a non-healthy verdict carries a message');
  });
}

test('every kind with a rule has fixtures for a healthy and for an unhealthy state', () => {
  const byKind = new Map<string, Set<HealthStatus>>();
  for (const c of cases) {
    const kind = c.name.split(' ')[1] ?? '';
    byKind.set(kind, (byKind.get(kind) ?? new Set()).add(c.want));
  }
  for (const [kind, states] of byKind) {
    assert.ok(states.has('Healthy'), `${kind} has a healthy fixture`);
    assert.ok(states.size > 1, `${kind} has an unhealthy fixture`);
  }
  assert.ok(byKind.size >= 14, `fixtures for ${byKind.size} kinds`);
});

test('the message of a stuck container names the container and its waiting reason', () => {
  const pod = yaml.load(
    readFileSync(join(fixtures, 'pod/degraded-crash-loop-back-off.yaml'), 'utf8'),
  ) as KubeObject;
  assert.match(healthOf(pod).message ?? '', /container web: CrashLoopBackOff/);
});

test('a Deployment past its progress deadline reports the controller message', () => {
  const file = join(fixtures, 'deployment/degraded-progress-deadline-exceeded.yaml');
  const deployment = yaml.load(readFileSync(file, 'utf8')) as KubeObject;
  assert.equal(healthOf(deployment).message, 'ReplicaSet "web-7d9f" has timed out progressing.');
});
