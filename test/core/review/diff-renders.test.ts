import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from '../../../src/core/model/diagnostic.js';
import { diffRenders, type RenderSide } from '../../../src/core/review/diff-renders.js';
import { formatDiffMarkdown } from '../../../src/core/review/format-diff-markdown.js';
import { formatDiffText } from '../../../src/core/review/format-diff-text.js';

type Files = Record<string, string>;

function side(clusters: Record<string, Files>, extra: Partial<RenderSide> = {}): RenderSide {
  return {
    clusters: new Map(
      Object.entries(clusters).map(([name, files]) => [name, { files: new Map(Object.entries(files)) }]),
    ),
    bindings: [],
    diagnostics: [],
    ...extra,
  };
}

const web = 'kind: Deployment\nspec:\n  replicas: 5\n';
const web6 = 'kind: Deployment\nspec:\n  replicas: 6\n';
const cm = 'kind: ConfigMap\n';

test('each cluster lists its added, changed and removed files with diffs whose paths carry the cluster', () => {
  const diff = diffRenders({
    base: side({
      m1: { 'shop/Deployment.apps/web.yaml': web, 'shop/ConfigMap/old.yaml': cm },
      m2: { 'x/ConfigMap/a.yaml': cm },
    }),
    head: side({
      m1: { 'shop/Deployment.apps/web.yaml': web6, 'shop/ConfigMap/new.yaml': cm },
      m2: { 'x/ConfigMap/a.yaml': cm },
    }),
  });
  assert.equal(diff.changed, true);
  assert.deepEqual(
    diff.clusters.map((c) => [c.cluster, c.added, c.changed, c.removed]),
    [['m1', 1, 1, 1]],
    'm2 did not change and is not listed',
  );
  const files = diff.clusters[0]!.files;
  assert.deepEqual(
    files.map((f) => [f.path, f.change, f.linesAdded, f.linesRemoved]),
    [
      ['shop/ConfigMap/new.yaml', 'added', 1, 0],
      ['shop/ConfigMap/old.yaml', 'removed', 0, 1],
      ['shop/Deployment.apps/web.yaml', 'changed', 1, 1],
    ],
  );
  assert.match(files[2]!.diff, /^--- a\/m1\/shop\/Deployment\.apps\/web\.yaml$/m);
  assert.match(files[2]!.diff, /^- {2}replicas: 5\n\+ {2}replicas: 6$/m);
  assert.match(files[0]!.diff, /^--- \/dev\/null$/m);
});

test('a cluster only in head is added with all its files; one only in base is removed', () => {
  const diff = diffRenders({
    base: side({ old: { 'a/ConfigMap/x.yaml': cm } }),
    head: side({ new: { 'a/ConfigMap/x.yaml': cm } }),
  });
  assert.deepEqual(
    diff.clusters.map((c) => [c.cluster, c.presence, c.added, c.removed]),
    [
      ['new', 'added', 1, 0],
      ['old', 'removed', 0, 1],
    ],
  );
});

test('a file that fails to render in head is held, not removed', () => {
  const head = side({ m1: {} });
  const m1 = head.clusters.get('m1')!;
  (head.clusters as Map<string, typeof m1>).set('m1', {
    ...m1,
    held: new Map([['a/ConfigMap/x.yaml', 'override failed']]),
  });
  const diff = diffRenders({ base: side({ m1: { 'a/ConfigMap/x.yaml': cm } }), head });
  assert.deepEqual(diff.clusters[0]!.held, ['a/ConfigMap/x.yaml']);
  assert.equal(diff.clusters[0]!.removed, 0);
});

test('identical renders are unchanged and format to an empty text and a no-change comment', () => {
  const files = { m1: { 'a/ConfigMap/x.yaml': cm } };
  const diff = diffRenders({ base: side(files), head: side(files) });
  assert.equal(diff.changed, false);
  assert.equal(formatDiffText(diff), '');
  assert.match(formatDiffMarkdown(diff), /No change/);
});

test('new and gone diagnostics are reported and count as a change', () => {
  const warn = (subject: string): Diagnostic => ({
    severity: 'warning',
    code: 'NoClusterFit',
    subject,
    message: 'nothing fits',
  });
  const diff = diffRenders({
    base: side({}, { diagnostics: [warn('ConfigMap/a/old'), warn('ConfigMap/a/kept')] }),
    head: side({}, { diagnostics: [warn('ConfigMap/a/kept'), warn('ConfigMap/a/new')] }),
  });
  assert.equal(diff.changed, true);
  assert.deepEqual(
    diff.diagnostics.added.map((d) => d.subject),
    ['ConfigMap/a/new'],
  );
  assert.deepEqual(
    diff.diagnostics.removed.map((d) => d.subject),
    ['ConfigMap/a/old'],
  );
  assert.match(formatDiffText(diff), /^# {3}\+ warning: ConfigMap\/a\/new: nothing fits$/m);
});

test('the text format has one header per cluster followed by its diffs', () => {
  const diff = diffRenders({
    base: side({ m1: { 'a/ConfigMap/x.yaml': cm }, m2: { 'a/Deployment.apps/web.yaml': web } }),
    head: side({ m1: {}, m2: { 'a/Deployment.apps/web.yaml': web6 } }),
  });
  const text = formatDiffText(diff);
  const headers = text.split('\n').filter((l) => l.startsWith('# cluster'));
  assert.deepEqual(headers, [
    '# cluster m1: 0 added, 0 changed, 1 removed',
    '# cluster m2: 0 added, 1 changed, 0 removed',
  ]);
  assert.ok(text.indexOf('diff --git a/m1/') < text.indexOf('# cluster m2'));
});

test('the markdown has a summary table and one collapsed section per cluster with a diff block', () => {
  const diff = diffRenders({
    base: side({ m1: { 'a/Deployment.apps/web.yaml': web } }),
    head: side({ m1: { 'a/Deployment.apps/web.yaml': web6, 'a/ConfigMap/x.yaml': cm } }),
  });
  const md = formatDiffMarkdown(diff, { title: 'gitfleet diff main → pr' });
  assert.match(md, /^### gitfleet diff main → pr$/m);
  assert.match(md, /^\| cluster \| added \| changed \| removed \|$/m);
  assert.match(md, /^\| `m1` \| 1 \| 1 \| 0 \|$/m);
  assert.match(md, /<details><summary>m1 \(2 files\)<\/summary>\n\n```diff\n/);
  assert.match(md, /\n```\n\n<\/details>/);
});

test('a diff holding backticks is fenced with a longer fence', () => {
  const diff = diffRenders({
    base: side({ m1: { 'a/ConfigMap/x.yaml': 'doc: |\n  ```\n' } }),
    head: side({ m1: { 'a/ConfigMap/x.yaml': 'doc: |\n  ````\n' } }),
  });
  assert.match(formatDiffMarkdown(diff), /^`````diff$/m);
});

test('markdown beyond the budget is cut with a note counting the diffs left out', () => {
  const big = (n: number) =>
    Array.from({ length: 200 }, (_, i) => `line-${n}-${i}: ${'x'.repeat(40)}\n`).join('');
  const clusters = (offset: number) =>
    Object.fromEntries(
      Array.from({ length: 12 }, (_, c) => [
        `c${String(c).padStart(2, '0')}`,
        Object.fromEntries(
          Array.from({ length: 3 }, (_, f) => [`a/ConfigMap/f${f}.yaml`, big(offset + c * 3 + f)]),
        ),
      ]),
    );
  const diff = diffRenders({ base: side(clusters(0)), head: side(clusters(1000)) });
  const md = formatDiffMarkdown(diff, { maxChars: 65_536 - 1_000 });
  assert.ok(md.length <= 65_536 - 1_000, `within the budget (${md.length})`);
  const total = 36;
  const shown = (md.match(/^diff --git /gm) ?? []).length;
  const note = /\*\*Truncated:\*\* (\d+) file diffs in (\d+) clusters not shown/.exec(md);
  assert.ok(note, 'a truncation note');
  assert.ok(shown > 0 && shown < total);
  assert.ok(Number(note![1]) >= total - shown, 'the note counts every diff not shown whole');
  assert.equal(
    (md.match(/<details>/g) ?? []).length,
    (md.match(/<\/details>/g) ?? []).length,
    'sections are closed',
  );
  assert.match(md, /^\| `c11` \| 0 \| 3 \| 0 \|$/m, 'the table still lists every cluster');
});
