// One pass of the scale scenario in its own process, so its peak RSS is the pass's own:
// load + render a generated fleet and, with --write, write every cluster's branch into a fresh
// bare repository through src/adapters/git (blobs hashed once per distinct text, trees, one
// pack, refs). Prints one JSON line with each phase's time and the peak RSS.
//   node build/bench/lib/scale-pass.js --templates 200 --clusters 100 [--write]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTreeFromScratch } from '../../src/adapters/git/build-tree-from-scratch.js';
import type { GitObject } from '../../src/adapters/git/git-object.js';
import { toGitObject } from '../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../src/adapters/git/make-commit.js';
import { updateRefs } from '../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../src/adapters/git/write-objects.js';
import { loadFleet } from '../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../src/core/model/snapshot.js';
import { renderFleet, type ClusterOutput } from '../../src/core/render/render-fleet.js';
import { generateFleet } from '../generate-fleet.js';

/** What one scale pass measured. */
export interface ScalePassReport {
  clusters: number;
  templates: number;
  objects: number;
  distinctObjects: number;
  loadMs: number;
  renderMs: number;
  /** Hash, build trees and commits, write the pack, move the refs; 0 without --write. */
  writeMs: number;
  peakRssMiB: number;
}

/** Writes every cluster's tree and first commit into `gitdir`; returns the number of distinct blobs. */
async function writeBranches(gitdir: string, clusters: ReadonlyMap<string, ClusterOutput>): Promise<number> {
  const blobs = new Map<string, GitObject>();
  const objects: GitObject[] = [];
  const updates: { ref: string; newOid: string; expectedOld: null }[] = [];
  const author = { name: 'gitfleet', email: 'hub@gitfleet.invalid', time: 1_700_000_000, tzOffsetMinutes: 0 };
  for (const [name, output] of clusters) {
    const files = new Map<string, string>();
    for (const [path, text] of output.files) {
      let blob = blobs.get(text);
      if (blob === undefined) blobs.set(text, (blob = toGitObject('blob', Buffer.from(text))));
      files.set(path, blob.oid);
    }
    const tree = buildTreeFromScratch(files);
    const commit = makeCommit({ tree: tree.root, parents: [], author, message: `render ${name}\n` });
    objects.push(...tree.newObjects, commit);
    updates.push({ ref: `refs/heads/gitfleet/clusters/${name}`, newOid: commit.oid, expectedOld: null });
  }
  await writeObjects({ gitdir, objects: [...blobs.values(), ...objects] });
  await updateRefs({ gitdir, updates });
  return blobs.size;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      templates: { type: 'string', default: '200' },
      clusters: { type: 'string', default: '10' },
      write: { type: 'boolean', default: false },
    },
  });
  const shape = { templates: Number(values.templates), clusters: Number(values.clusters) };
  const files = generateFleet(shape);
  const t0 = performance.now();
  const loaded = loadFleet(files);
  if (!loaded.ok) throw new Error(`generated fleet does not load: ${loaded.errors[0]?.message}`);
  const t1 = performance.now();
  const result = renderFleet(freshSnapshot(loaded.fleet));
  const t2 = performance.now();
  let distinct = new Set([...result.clusters.values()].flatMap((c) => [...c.files.values()])).size;
  let writeMs = 0;
  if (values.write) {
    const dir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-scale-'));
    try {
      execFileSync('git', ['init', '-q', '--bare', dir]);
      const start = performance.now();
      distinct = await writeBranches(dir, result.clusters);
      writeMs = performance.now() - start;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const report: ScalePassReport = {
    ...shape,
    objects: [...result.clusters.values()].reduce((n, c) => n + c.files.size, 0),
    distinctObjects: distinct,
    loadMs: t1 - t0,
    renderMs: t2 - t1,
    writeMs,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  console.log(JSON.stringify(report));
}

await main();
