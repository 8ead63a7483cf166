// The commit-status worker is nudged (and so reads the fleet status) only after a pass that may
// have changed what the status is computed from (cli/commands/hub-commit-status.ts nudging): a
// run of passes up to date on one bindings commit is one read, a rendered pass or a new bindings
// commit is another. Each nudge of the real worker is one readFleetStatus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nudging } from '../../src/cli/commands/hub-commit-status.js';
import type { CommitStatusWorker } from '../../src/loops/hub/commit-status-worker.js';
import type { HubPassResult } from '../../src/loops/hub/hub-pass-result.js';
import { noTimings } from '../../src/loops/hub/hub-pass-result.js';

const facts = {
  source: { ref: 'refs/heads/main', commit: 'a'.repeat(40), subject: 's', message: 's' },
  timings: noTimings(),
  attempts: 1,
};
const upToDate = (bindingsCommit: string): HubPassResult => ({ ...facts, type: 'upToDate', bindingsCommit });
const rendered = (commit: string): HubPassResult => ({
  ...facts,
  type: 'rendered',
  clusters: {},
  bindings: { type: 'updated', commit, records: 1, changes: 1 },
  diagnostics: [],
  written: { objects: 1, refs: 1, hashedTexts: 1 },
});

function counting(): { worker: CommitStatusWorker; nudges: () => number } {
  let n = 0;
  const worker: CommitStatusWorker = {
    nudge: () => void n++,
    settled: () => Promise.resolve(),
    close: () => Promise.resolve(),
    flush: () => Promise.resolve(),
  };
  return { worker, nudges: () => n };
}

test('Ten passes up to date on one bindings commit are one read of the fleet status, not ten', () => {
  const { worker, nudges } = counting();
  const reported: HubPassResult[] = [];
  const report = nudging(worker, (r) => reported.push(r));
  for (let i = 0; i < 10; i++) report(upToDate('b1'.repeat(20)));
  assert.equal(reported.length, 10, 'every pass is still reported');
  assert.equal(nudges(), 1);
});

test('A rendered pass, and a pass up to date on another bindings commit, are read', () => {
  const { worker, nudges } = counting();
  const report = nudging(worker, () => undefined);
  report(upToDate('b1'.repeat(20)));
  report(rendered('b2'.repeat(20)));
  report(upToDate('b2'.repeat(20)));
  report(upToDate('b2'.repeat(20)));
  report(rendered('b3'.repeat(20)));
  report(upToDate('b4'.repeat(20)));
  assert.equal(nudges(), 4);
});
