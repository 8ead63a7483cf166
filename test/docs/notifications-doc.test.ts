// docs/notifications.md against src (issue 34, done when): every event type there is has a row
// of the events table and at least one example payload, and every example is the contract's JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fleetEventTypes } from '../../src/core/notify/fleet-event.js';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';

const doc = readFileSync(join(repoRoot(), 'docs/notifications.md'), 'utf8');

test('docs/notifications.md lists every event type in its table, with an example payload of each', () => {
  const examples = doc
    .split('\n')
    .filter((l) => l.startsWith('{"event":'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const type of fleetEventTypes) {
    assert.match(
      doc,
      new RegExp(`^\\| \`${type}\` \\| (info|warning|error) \\|`, 'm'),
      `${type}: a row of the table`,
    );
    assert.ok(
      examples.some((e) => e['event'] === type),
      `${type}: an example payload`,
    );
  }
  for (const e of examples) {
    assert.deepEqual(
      Object.keys(e).filter(
        (k) =>
          ![
            'event',
            'severity',
            'time',
            'sourceCommit',
            'cluster',
            'object',
            'message',
            'id',
            'coalesced',
          ].includes(k),
      ),
      [],
      `${String(e['event'])}: only the contract's keys`,
    );
  }
});
