// Routing (core/notify/route-events.ts): event types, severity, cluster labels and namespaces;
// a policy that matches nothing sends nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeEvent } from '../../../src/core/notify/route-events.js';
import { fleetEvent, type FleetEvent } from '../../../src/core/notify/fleet-event.js';
import type { NotificationPolicy, NotificationRoute } from '../../../src/core/model/notification-policy.js';

const labels = new Map([
  ['prod-1', { env: 'prod' }],
  ['dev-1', { env: 'dev' }],
]);

function policyWith(...routes: Partial<NotificationRoute>[]): NotificationPolicy {
  return {
    name: 'ops',
    receivers: [{ name: 'hook', type: 'webhook', url: { type: 'file', file: 'u' } }],
    routes: routes.map((r) => ({
      events: ['*'],
      severity: 'info',
      namespaces: [],
      receivers: ['hook'],
      ...r,
    })),
    source: { file: 'notify.yaml', index: 0, line: 1 },
  };
}

const halted = (fields: Partial<FleetEvent> = {}): FleetEvent => ({
  ...fleetEvent('RolloutHalted', { id: 'c:0', time: 't', sourceCommit: 's', message: 'm' }),
  ...fields,
});
const evicted = fleetEvent('ObjectEvicted', {
  id: 'c:1',
  time: 't',
  sourceCommit: 's',
  cluster: 'dev-1',
  object: 'Deployment/shop/web',
  namespace: 'shop',
  message: 'm',
});

const cases: { name: string; routes: Partial<NotificationRoute>[]; event: FleetEvent; want: string[] }[] = [
  { name: 'A route of every event takes any.', routes: [{}], event: evicted, want: ['ops/hook'] },
  {
    name: 'A route of other event types takes none of this one.',
    routes: [{ events: ['RolloutHalted'] }],
    event: evicted,
    want: [],
  },
  {
    name: 'A route of errors does not take a warning.',
    routes: [{ severity: 'error' }],
    event: evicted,
    want: [],
  },
  {
    name: 'A route of warnings takes an error.',
    routes: [{ severity: 'warning' }],
    event: halted(),
    want: ['ops/hook'],
  },
  {
    name: 'A cluster selector takes the clusters whose labels match.',
    routes: [{ clusters: { matchLabels: { env: 'dev' } } }],
    event: evicted,
    want: ['ops/hook'],
  },
  {
    name: 'A cluster selector does not take other clusters.',
    routes: [{ clusters: { matchLabels: { env: 'prod' } } }],
    event: evicted,
    want: [],
  },
  {
    name: 'A cluster selector does not take an event of no cluster.',
    routes: [{ clusters: { matchLabels: { env: 'prod' } } }],
    event: halted(),
    want: [],
  },
  {
    name: 'A cluster selector does not take an event of a cluster no longer registered.',
    routes: [{ clusters: {} }],
    event: halted({ cluster: 'gone' }),
    want: [],
  },
  {
    name: 'Namespaces take objects in them.',
    routes: [{ namespaces: ['shop'] }],
    event: evicted,
    want: ['ops/hook'],
  },
  {
    name: 'Namespaces do not take objects elsewhere.',
    routes: [{ namespaces: ['billing'] }],
    event: evicted,
    want: [],
  },
  {
    name: 'Two routes to one receiver send the event once.',
    routes: [{}, { events: ['ObjectEvicted'] }],
    event: evicted,
    want: ['ops/hook'],
  },
];

for (const c of cases)
  test(c.name, () => assert.deepEqual(routeEvent(c.event, [policyWith(...c.routes)], labels), c.want));

test('With no policy, nothing is routed anywhere.', () =>
  assert.deepEqual(routeEvent(evicted, [], labels), []));
