// previewDiff is what `gitfleet diff` prints and what the dashboard shows: the same markdown and
// text, the verdict counted from the diff, a Secret committed in plaintext warned of in both,
// and a clear error naming a side that fails.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, git, initRepo } from '../../adapters/source/git-fixture.js';
import { runCli } from '../../cli/run-cli.js';
import { previewDiff, PreviewDiffError } from '../../../src/loops/preview/preview-diff.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../../..');
const example = join(repoRoot, 'examples/fleet-repo');
after(cleanup);

function commit(repo: string, message: string): string {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
  return git(repo, 'rev-parse', 'HEAD');
}

function scaledExample(): { repo: string; base: string; head: string } {
  const repo = initRepo();
  cpSync(example, repo, { recursive: true });
  const base = commit(repo, 'fleet');
  const file = join(repo, 'apps/shop/web.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('replicas: 10', 'replicas: 12'));
  const head = commit(repo, 'scale web');
  return { repo, base, head };
}

test('the preview is what gitfleet diff prints, and its verdict sums the per-cluster counts', async () => {
  const { repo, base, head } = scaledExample();
  const preview = await previewDiff({ dir: repo, base, head });
  assert.equal(preview.base.commit, base);
  assert.equal(preview.head.commit, head);
  assert.deepEqual([preview.base.subject, preview.head.subject], ['fleet', 'scale web']);
  // gitfleet diff adds one line naming the repository and the commits it compared; the rest is the preview.
  const md = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.equal(`${md.stdout.replace(/\n\n_compared: [^\n]*_$/m, '')}\n`, preview.markdown);
  const text = await runCli(['diff', repo, base, head]);
  assert.equal(`${text.stdout.replace(/^# compared: .*\n/m, '')}\n`, preview.text);
  const sum = (k: 'added' | 'changed' | 'removed') => preview.diff.clusters.reduce((n, c) => n + c[k], 0);
  assert.ok(preview.verdict.changed > 0);
  assert.deepEqual(
    [preview.verdict.clusters, preview.verdict.added, preview.verdict.changed, preview.verdict.removed],
    [preview.diff.clusters.length, sum('added'), sum('changed'), sum('removed')],
  );
  assert.equal(preview.markdown.split('\n')[0], `**${capitalized(preview.verdict.text)}**`);
  assert.equal(preview.text.split('\n')[0], `# ${preview.verdict.text}`);
});

test('a Secret committed in plaintext is a caution in the preview and in the pull-request comment alike, never its value', async () => {
  const { repo, base } = scaledExample();
  writeFileSync(
    join(repo, 'apps/shop/oops.yaml'),
    'apiVersion: v1\nkind: Secret\nmetadata: {name: oops, namespace: shop}\nstringData: {token: plain-t0ken-value}\n',
  );
  const head = commit(repo, 'a token in the clear');
  const preview = await previewDiff({ dir: repo, base, head });
  // The example's own session key (apps/shop/web.yaml) is one too: each is a line of the caution.
  assert.equal(preview.plaintextSecrets.length, 2);
  const warned =
    /^> \*\*Warning:\*\* apps\/shop\/oops\.yaml.*Secret\/shop\/oops: PLAINTEXT SECRET committed to Git/m;
  assert.match(preview.markdown, warned);
  assert.match(preview.markdown, /^> \[!CAUTION\]$/m);
  assert.equal(preview.markdown.match(/^> \*\*Warning:\*\* .*PLAINTEXT SECRET/gm)?.length, 2);
  const md = await runCli(['diff', repo, base, head, '--format', 'markdown']);
  assert.match(md.stdout, warned);
  assert.equal(`${md.stdout.replace(/\n\n_compared: [^\n]*_$/m, '')}\n`, preview.markdown);
  const values = ['plain-t0ken-value', 'bm90LWEtcmVhbC1rZXktZXhhbXBsZS1vbmx5', 'not-a-real-key-example-only'];
  for (const value of [...values, Buffer.from('plain-t0ken-value').toString('base64')])
    for (const text of [preview.markdown, preview.text, md.stdout, md.stderr])
      assert.ok(!text.includes(value), `${value} shown`);
});

test('a revision that names nothing throws PreviewDiffError naming the side and the revision', async () => {
  const { repo, base } = scaledExample();
  await assert.rejects(
    previewDiff({ dir: repo, base, head: 'no-such-branch' }),
    (e: unknown) =>
      e instanceof PreviewDiffError &&
      e.failures.length === 1 &&
      e.failures[0]!.side === 'head' &&
      /head 'no-such-branch' does not load/.test(e.message),
  );
});

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
