// Benchmark: gitfleet's object writer against `git fast-import` on the same cluster trees.
//
//   npx tsc -p tsconfig.json && node build/bench/git-write.js [--clusters 50] [--files 2000] [--runs 3]
//
// Each run writes every cluster's tree and commit into a fresh bare repository, once through
// src/adapters/git (hash, build trees, one pack, compare-and-swap refs) and once through
// fast-import, alternating; prints the median of each, their ratio and peak RSS, checks that
// both produced the same trees, then times an incremental pass (one file changed per cluster).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTree } from '../src/adapters/git/build-tree.js';
import { buildTreeFromScratch } from '../src/adapters/git/build-tree-from-scratch.js';
import type { GitObject } from '../src/adapters/git/git-object.js';
import { toGitObject } from '../src/adapters/git/hash-object.js';
import { makeCommit, type GitSignature } from '../src/adapters/git/make-commit.js';
import { updateRefs } from '../src/adapters/git/update-ref.js';
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
  const updates = [...tips].map(([name, tip]) => ({
    ref: refOf(name),
    newOid: tip.commit,
    expectedOld: null,
  }));
  await updateRefs({ gitdir, updates });
  const phases: Phases = {
    build: built - start,
    write: written - built,
    refs: performance.now() - written,
    objects: count,
  };
  return { phases, tips };
}

/** Changes one file in every cluster and moves every branch; returns the time of each phase and the objects written. */
async function writeIncrementalPass(gitdir: string, tips: Map<string, { commit: string; tree: string }>) {
  const start = performance.now();
  const cache = {};
  const objects: GitObject[] = [];
  const updates: { ref: string; newOid: string; expectedOld: string }[] = [];
  for (const [name, tip] of tips) {
    const blob = toGitObject('blob', Buffer.from(`changed in ${name}\n`));
    const change = { path: 'team-3/ConfigMap/app-5.yaml', oid: blob.oid };
    const tree = await buildTree({ gitdir, cache, base: tip.tree, changes: [change] });
    const author = { ...hub, time: time + 60 };
    const commit = makeCommit({ tree: tree.root, parents: [tip.commit], author, message: 'change' });
    objects.push(blob, ...tree.newObjects, commit);
    updates.push({ ref: refOf(name), newOid: commit.oid, expectedOld: tip.commit });
  }
  const built = performance.now();
  const { count } = await writeObjects({ gitdir, objects });
  const written = performance.now();
  await updateRefs({ gitdir, cache, updates });
  const end = performance.now();
  const phases: Phases = {
    build: built - start,
    write: written - built,
    refs: end - written,
    objects: count,
  };
  return { ms: end - start, phases };
}

/** Returns the total size of a repository's packs in MB. */
function packMegabytes(gitdir: string): string {
  const dir = join(gitdir, 'objects', 'pack');
  const bytes = readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  return `${(bytes / 1e6).toFixed(1)} MB`;
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

interface Samples {
  ours: number[];
  theirs: number[];
  fastImportRss: number[];
}

/** One alternating run: gitfleet into a fresh repo, then fast-import into another; the first run also checks and times an incremental pass. */
async function runOnce(run: number, clusters: readonly RenderedCluster[], stream: Buffer, samples: Samples) {
  const ourRepo = freshRepo();
  const t0 = performance.now();
  const { phases, tips } = await writeFirstPass(ourRepo, clusters);
  samples.ours.push(performance.now() - t0);
  console.log(
    `  run ${run + 1}: gitfleet ${ms(samples.ours.at(-1)!)} (hash+trees ${ms(phases.build)}, ` +
      `pack ${ms(phases.write)} for ${phases.objects} objects, refs ${ms(phases.refs)})`,
  );
  const fiRepo = freshRepo();
  const t1 = performance.now();
  const rss = await runFastImport(fiRepo, stream);
  samples.theirs.push(performance.now() - t1);
  if (rss !== null) samples.fastImportRss.push(rss);
  console.log(`  run ${run + 1}: fast-import ${ms(samples.theirs.at(-1)!)}`);
  if (run === 0) {
    if (!sameTrees(ourRepo, fiRepo, clusters))
      throw new Error('gitfleet and fast-import wrote different trees');
    execFileSync('git', ['--git-dir', ourRepo, 'fsck', '--strict', '--no-dangling'], { stdio: 'ignore' });
    console.log(
      `  pack size: gitfleet ${packMegabytes(ourRepo)} (no deltas), fast-import ${packMegabytes(fiRepo)}`,
    );
    const inc = await writeIncrementalPass(ourRepo, tips);
    console.log(
      `  incremental pass, 1 file changed in each of ${clusters.length} clusters: ${ms(inc.ms)} ` +
        `(read + build trees ${ms(inc.phases.build)}, write ${ms(inc.phases.write)} for ${inc.phases.objects} objects, ` +
        `refs ${ms(inc.phases.refs)})`,
    );
  }
  rmSync(ourRepo, { recursive: true, force: true });
  rmSync(fiRepo, { recursive: true, force: true });
}

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
  const samples: Samples = { ours: [], theirs: [], fastImportRss: [] };
  for (let run = 0; run < runs; run++) await runOnce(run, clusters, stream, samples);
  const ratio = median(samples.ours) / median(samples.theirs);
  console.log(`gitfleet:    ${ms(median(samples.ours))}`);
  console.log(`fast-import: ${ms(median(samples.theirs))}`);
  console.log(`ratio:       ${ratio.toFixed(2)}x (target <= 2x)`);
  console.log(
    `peak RSS:    bench process ${mib(process.resourceUsage().maxRSS)} ` +
      `(${mib(rssBefore)} of it held before the first write: manifests and the fast-import stream)` +
      (samples.fastImportRss.length > 0 ? `; fast-import ${mib(Math.max(...samples.fastImportRss))}` : ''),
  );
  console.log("trees: identical to fast-import's; fsck --strict: clean");
}

await main();
