import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffLines, splitLines } from '../../../src/core/review/diff-lines.js';
import { diffSequences } from '../../../src/core/review/diff-sequences.js';
import { unifiedDiff } from '../../../src/core/review/unified-diff.js';
import { seededRandom } from '../seeded-random.js';
import { lcsLength, randomEdit } from './random-edits.js';

const cases: { name: string; given: { a: string; b: string }; want: string }[] = [
  { name: 'Two empty texts have no edits.', given: { a: '', b: '' }, want: '' },
  { name: 'An added text is all insertions.', given: { a: '', b: 'x\ny\n' }, want: '+x\n|+y\n' },
  { name: 'A removed text is all deletions.', given: { a: 'x\ny\n', b: '' }, want: '-x\n|-y\n' },
  { name: 'Equal texts are all kept.', given: { a: 'x\ny\n', b: 'x\ny\n' }, want: ' x\n| y\n' },
  {
    name: 'A changed line is a deletion followed by an insertion.',
    given: { a: 'a\nb\nc\n', b: 'a\nB\nc\n' },
    want: ' a\n|-b\n|+B\n| c\n',
  },
  {
    name: 'A run of changes shows every deletion before the insertions.',
    given: { a: 'a\nb\nc\nd\n', b: 'a\nB\nC\nd\n' },
    want: ' a\n|-b\n|-c\n|+B\n|+C\n| d\n',
  },
  {
    name: 'A last line without a newline differs from the same line with one.',
    given: { a: 'a\nb', b: 'a\nb\n' },
    want: ' a\n|-b|+b\n',
  },
  {
    name: 'A line inserted in the middle keeps everything around it.',
    given: { a: 'a\nb\nd\n', b: 'a\nb\nc\nd\n' },
    want: ' a\n| b\n|+c\n| d\n',
  },
  { name: 'Disjoint texts are replaced whole.', given: { a: 'a\nb\n', b: 'c\n' }, want: '-a\n|-b\n|+c\n' },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const edits = diffLines(given.a, given.b);
    const sign = { equal: ' ', delete: '-', insert: '+' } as const;
    assert.equal(edits.map((e) => sign[e.op] + e.line).join('|'), want);
  });
}

test('splitting keeps every newline, and a text without a final newline ends in a bare line', () => {
  assert.deepEqual(splitLines(''), []);
  assert.deepEqual(splitLines('\n'), ['\n']);
  assert.deepEqual(splitLines('a\n\nb'), ['a\n', '\n', 'b']);
});

test('for random edits the script rebuilds both texts and is as short as the longest common subsequence allows', () => {
  const random = seededRandom(7);
  for (let round = 0; round < 300; round++) {
    const { a, b } = randomEdit(random);
    const edits = diffLines(a, b);
    assert.equal(
      edits
        .filter((e) => e.op !== 'insert')
        .map((e) => e.line)
        .join(''),
      a,
    );
    assert.equal(
      edits
        .filter((e) => e.op !== 'delete')
        .map((e) => e.line)
        .join(''),
      b,
    );
    const aLines = splitLines(a);
    const bLines = splitLines(b);
    const shortest = aLines.length + bLines.length - 2 * lcsLength(aLines, bLines);
    assert.equal(edits.filter((e) => e.op !== 'equal').length, shortest, JSON.stringify({ a, b }));
  }
});

test('the sequence diff finds the shortest script on integer sequences with many repeats', () => {
  const random = seededRandom(11);
  for (let round = 0; round < 200; round++) {
    const a = Array.from({ length: random(25) }, () => random(3));
    const b = Array.from({ length: random(25) }, () => random(3));
    const ops = diffSequences(a, b);
    assert.equal(ops.filter((op) => op !== 'insert').length, a.length);
    assert.equal(ops.filter((op) => op !== 'delete').length, b.length);
    assert.equal(ops.filter((op) => op !== 'equal').length, a.length + b.length - 2 * lcsLength(a, b));
  }
});

const unified: { name: string; given: Parameters<typeof unifiedDiff>[0]; want: string }[] = [
  {
    name: 'An unchanged file gives no diff at all.',
    given: { oldPath: 'f', newPath: 'f', a: 'x\n', b: 'x\n' },
    want: '',
  },
  {
    name: 'An added file is diffed against /dev/null with a new file mode.',
    given: { oldPath: null, newPath: 'f', a: '', b: 'x\ny\n' },
    want: 'diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n',
  },
  {
    name: 'A removed file is diffed against /dev/null with a deleted file mode.',
    given: { oldPath: 'f', newPath: null, a: 'x\n', b: '' },
    want: 'diff --git a/f b/f\ndeleted file mode 100644\n--- a/f\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
  },
  {
    name: 'An added empty file has a header and no hunk, as git writes it.',
    given: { oldPath: null, newPath: 'f', a: '', b: '' },
    want: 'diff --git a/f b/f\nnew file mode 100644\n',
  },
  {
    name: 'A missing final newline is marked after the line that lacks it.',
    given: { oldPath: 'f', newPath: 'f', a: 'a\nb\n', b: 'a\nc' },
    want: 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n',
  },
  {
    name: 'Context is cut at three lines, and changes far apart get their own hunks.',
    given: {
      oldPath: 'f',
      newPath: 'f',
      a: '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n',
      b: '1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n',
    },
    want:
      'diff --git a/f b/f\n--- a/f\n+++ b/f\n' +
      '@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n' +
      '@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n',
  },
  {
    name: 'Changes whose contexts touch share one hunk.',
    given: {
      oldPath: 'f',
      newPath: 'f',
      a: '1\n2\n3\n4\n5\n6\n7\n8\n9\n',
      b: '1\nX\n3\n4\n5\n6\n7\nY\n9\n',
    },
    want:
      'diff --git a/f b/f\n--- a/f\n+++ b/f\n' +
      '@@ -1,9 +1,9 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n 9\n',
  },
  {
    name: 'With no context a pure insertion names the line it follows.',
    given: { oldPath: 'f', newPath: 'f', a: 'a\nb\n', b: 'a\nx\nb\n', context: 0 },
    want: 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,0 +2 @@\n+x\n',
  },
];

for (const { name, given, want } of unified) {
  test(name, () => assert.equal(unifiedDiff(given), want));
}
