// Benchmark: gitfleet's object writer against `git fast-import` on the same cluster trees.
//
//   npx tsc -p tsconfig.json && node build/bench/git-write.js [--clusters 50] [--files 2000] [--runs 3]
//
// Each run writes every cluster's tree and commit into a fresh bare repository, once through
// src/adapters/git (hash, build trees, one pack, compare-and-swap refs) and once through
// fast-import, alternating; prints the median of each, their ratio and peak RSS, checks that
// both produced the same trees, then times an incremental pass (one file changed per cluster).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTree } from '../src/adapters/git/build-tree.js';
import { buildTreeFromScratch } from '../src/adapters/git/build-tree-from-scratch.js';
import type { GitObject } from '../src/adapters/git/git-object.js';
import { toGitObject } from '../src/adapters/git/hash-object.js';
import { makeCommit, type GitSignature } from '../src/adapters/git/make-commit.js';
import { updateRef } from '../src/adapters/git/update-ref.js';
import { writeObjects } from '../src/adapters/git/write-objects.js';
import { fastImportStream, runFastImport } from './git-write-fast-import.js';
import { generateRenderedClusters, type RenderedCluster } from './git-write-fleet.js';

const time = 1_700_000_000;
const hub: GitSignature = { name: 'gitfleet', email: 'hub@gitfleet.invalid', time, tzOffsetMinutes: 0 };
const refOf = (cluster: string): string => `refs/heads/gitfleet/clusters/${cluster}`;

interface Phases {
  build: number;
  write: number;
  refs: number;
  objects: number;
}

/** Writes every cluster's first commit; returns the time of each phase and the commits. */
async function writeFirstPass(gitdir: string, clusters: readonly RenderedCluster[]) {
  const start = performance.now();
  const objects: GitObject[] = [];
  const tips = new Map<string, { commit: string; tree: string }>();
  for (const cluster of clusters) {
    const files = new Map<string, string>();
    for (const [path, content] of cluster.files) {
      const blob = toGitObject('blob', content);
      objects.push(blob);
      files.set(path, blob.oid);
    }
    const tree = buildTreeFromScratch(files);
    objects.push(...tree.newObjects);
    const commit = makeCommit({
      tree: tree.root,
      parents: [],
      author: hub,
      message: `render ${cluster.name}`,
    });
    objects.push(commit);
    tips.set(cluster.name, { commit: commit.oid, tree: tree.root });
  }
  const built = performance.now();
  const { count } = await writeObjects({ gitdir, objects });
  const written = performance.now();
  const cache = {};
  for (const [name, tip] of tips) {
    await updateRef({ gitdir, cache, ref: refOf(name), newOid: tip.commit, expectedOld: null });
  }
  const phases: Phases = {
    build: built - start,
    write: written - built,
    refs: performance.now() - written,
    objects: count,
  };
  return { phases, tips };
}

/** Changes one file in every cluster and moves every branch; returns the elapsed ms and objects written. */
async function writeIncrementalPass(gitdir: string, tips: Map<string, { commit: string; tree: string }>) {
  const start = performance.now();
  const cache = {};
  const objects: GitObject[] = [];
  const moves: { ref: string; old: string; commit: string }[] = [];
  for (const [name, tip] of tips) {
    const blob = toGitObject('blob', Buffer.from(`changed in ${name}\n`));
    const tree = await buildTree({
      gitdir,
      cache,
      base: tip.tree,
      changes: [{ path: 'team-3/ConfigMap/app-5.yaml', oid: blob.oid }],
    });
    const commit = makeCommit({
      tree: tree.root,
      parents: [tip.commit],
      author: { ...hub, time: time + 60 },
      message: 'change',
    });
    objects.push(blob, ...tree.newObjects, commit);
    moves.push({ ref: refOf(name), old: tip.commit, commit: commit.oid });
  }
  const { count } = await writeObjects({ gitdir, objects });
  for (const m of moves) await updateRef({ gitdir, cache, ref: m.ref, newOid: m.commit, expectedOld: m.old });
  return { ms: performance.now() - start, count };
}

function freshRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-'));
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', '--bare', dir]);
  return dir;
}

function sameTrees(ours: string, theirs: string, clusters: readonly RenderedCluster[]): boolean {
  const tree = (gitdir: string, name: string): string =>
    execFileSync('git', ['--git-dir', gitdir, 'rev-parse', `${refOf(name)}^{tree}`])
      .toString()
      .trim();
  return clusters.every((c) => tree(ours, c.name) === tree(theirs, c.name));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const mib = (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      clusters: { type: 'string', default: '50' },
      files: { type: 'string', default: '2000' },
      runs: { type: 'string', default: '3' },
    },
  });
  const [nClusters, nFiles, runs] = [Number(values.clusters), Number(values.files), Number(values.runs)];
  const clusters = generateRenderedClusters(nClusters, nFiles);
  const stream = fastImportStream(clusters, time);
  const rssBefore = process.resourceUsage().maxRSS;
  console.log(
    `${nClusters} clusters x ${nFiles} files, ${(stream.length / 1e6).toFixed(0)} MB of manifests; median of ${runs}`,
  );
  const ours: number[] = [];
  const theirs: number[] = [];
  const fastImportRss: number[] = [];
  for (let run = 0; run < runs; run++) {
    const ourRepo = freshRepo();
    const t0 = performance.now();
    const { phases, tips } = await writeFirstPass(ourRepo, clusters);
    ours.push(performance.now() - t0);
    console.log(
      `  run ${run + 1}: gitfleet ${ms(ours.at(-1)!)} (hash+trees ${ms(phases.build)}, pack ${ms(phases.write)} for ${phases.objects} objects, refs ${ms(phases.refs)})`,
    );
    const fiRepo = freshRepo();
    const t1 = performance.now();
    const rss = await runFastImport(fiRepo, stream);
    theirs.push(performance.now() - t1);
    if (rss !== null) fastImportRss.push(rss);
    console.log(`  run ${run + 1}: fast-import ${ms(theirs.at(-1)!)}`);
    if (run === 0) {
      if (!sameTrees(ourRepo, fiRepo, clusters))
        throw new Error('gitfleet and fast-import wrote different trees');
      execFileSync('git', ['--git-dir', ourRepo, 'fsck', '--strict', '--no-dangling'], { stdio: 'ignore' });
      const inc = await writeIncrementalPass(ourRepo, tips);
      console.log(
        `  incremental pass (1 file changed in each of ${nClusters} clusters): ${ms(inc.ms)}, ${inc.count} objects`,
      );
    }
    rmSync(ourRepo, { recursive: true, force: true });
    rmSync(fiRepo, { recursive: true, force: true });
  }
  const ratio = median(ours) / median(theirs);
  console.log(`gitfleet:    ${ms(median(ours))}`);
  console.log(`fast-import: ${ms(median(theirs))}`);
  console.log(`ratio:       ${ratio.toFixed(2)}x (target <= 2x)`);
  console.log(
    `peak RSS:    bench process ${mib(process.resourceUsage().maxRSS)} (${mib(rssBefore)} after generating the manifests)` +
      (fastImportRss.length > 0 ? `, fast-import ${mib(Math.max(...fastImportRss))}` : ''),
  );
  console.log("trees: identical to fast-import's; fsck --strict: clean");
}

await main();
