import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mutatingRequestsBetween, parseRequestCounts } from '../../bench/lib/count-mutating-requests.js';

const line = (verb: string, resource: string, dryRun: string, value: number) =>
  `apiserver_request_total{code="200",component="apiserver",dry_run="${dryRun}",group="",resource="${resource}",scope="resource",subresource="",verb="${verb}",version="v1"} ${value}`;

test('dry-run writes are counted apart from the mutating requests they are not', () => {
  const before = parseRequestCounts(
    [
      '# HELP apiserver_request_total ...',
      line('APPLY', 'configmaps', '', 10),
      line('APPLY', 'configmaps', 'All', 5),
    ].join('\n'),
  );
  const after = parseRequestCounts(
    [
      line('APPLY', 'configmaps', '', 12),
      line('APPLY', 'configmaps', 'All', 1005),
      line('GET', 'configmaps', '', 40),
      line('DELETE', 'configmaps', '', 1),
    ].join('\n'),
  );
  assert.deepEqual(mutatingRequestsBetween(before, after, { resources: ['configmaps'] }), {
    total: 3,
    byVerb: { APPLY: 2, DELETE: 1 },
    dryRun: { total: 1000, byVerb: { APPLY: 1000 } },
  });
});
