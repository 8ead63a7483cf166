// PassNews: whether a pass of the running hub is reported in full, as a quiet line, or (JSON)
// not at all, judged against the pass reported in full before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassNews, type PassNewsVerdict } from '../../../src/loops/hub/pass-news.js';
import { noTimings, type HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);

function facts(commit: string) {
  return {
    source: { ref: 'refs/heads/main', commit, subject: 's', message: 's' },
    timings: noTimings(),
    attempts: 1,
  };
}

function rendered(
  commit: string,
  over: Partial<Extract<HubPassResult, { type: 'rendered' }>> = {},
): HubPassResult {
  return {
    ...facts(commit),
    type: 'rendered',
    clusters: { member1: { type: 'unchanged', objects: 3 } },
    bindings: { type: 'updated', commit: b, records: 3, changes: 1 },
    diagnostics: [],
    written: { objects: 1, refs: 1, hashedTexts: 0 },
    ...over,
  };
}

const upToDate = (commit: string): HubPassResult => ({
  ...facts(commit),
  type: 'upToDate',
  bindingsCommit: b,
});
const loadFailed = (commit: string, message: string): HubPassResult => ({
  ...facts(commit),
  type: 'loadFailed',
  errors: [{ code: 'YamlSyntax', file: 'x.yaml', message }],
});
const updated = {
  member1: { type: 'updated', commit: b, objects: 3, added: 0, changed: 1, removed: 0 },
} as const;

const cases: { name: string; output: 'text' | 'json'; passes: HubPassResult[]; want: PassNewsVerdict[] }[] = [
  {
    name: 'the first pass is reported in full, a status-only render of the same commit after it is quiet',
    output: 'text',
    passes: [rendered(a), rendered(a)],
    want: ['full', 'quiet'],
  },
  {
    name: 'a render that wrote a cluster branch is news, even of the same commit',
    output: 'text',
    passes: [rendered(a), rendered(a, { clusters: updated })],
    want: ['full', 'full'],
  },
  {
    name: 'a new diagnostic is news when no branch moved',
    output: 'text',
    passes: [
      rendered(a),
      rendered(a, {
        diagnostics: [{ severity: 'warning', code: 'OverrideFailed', subject: 'Deployment/a', message: 'm' }],
      }),
    ],
    want: ['full', 'full'],
  },
  {
    name: 'a new source commit is news; up to date with the commit reported is quiet',
    output: 'text',
    passes: [rendered(a), rendered(b), upToDate(b)],
    want: ['full', 'full', 'quiet'],
  },
  {
    name: 'the same load failure again is quiet, another one is news',
    output: 'text',
    passes: [loadFailed(a, 'bad'), loadFailed(a, 'bad'), loadFailed(a, 'worse')],
    want: ['full', 'quiet', 'full'],
  },
  {
    name: 'in JSON every render is a record, an up-to-date source one record until it changes',
    output: 'json',
    passes: [rendered(a), rendered(a), upToDate(a), upToDate(a), upToDate(b)],
    want: ['full', 'full', 'full', 'none', 'full'],
  },
];

for (const { name, output, passes, want } of cases) {
  test(name, () => {
    const news = new PassNews();
    assert.deepEqual(
      passes.map((pass) => news.judge(pass, output)),
      want,
    );
  });
}

test('after forget (a new term), the pass that was quiet is reported in full again', () => {
  const news = new PassNews();
  assert.equal(news.judge(rendered(a), 'text'), 'full');
  assert.equal(news.judge(rendered(a), 'text'), 'quiet');
  news.forget();
  assert.equal(news.judge(rendered(a), 'text'), 'full');
});
