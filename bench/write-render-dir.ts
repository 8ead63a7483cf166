// Benchmark: writeRenderDir on a rendered fleet (default 2,000 templates × 50 clusters), the
// file-writing half of `gitfleet render --out`. Times a first write into an empty directory,
// a rewrite where nothing changed and a rewrite where one file changed. Not a test.
//   node build/bench/write-render-dir.js [--templates N] [--clusters M] [--runs R]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeRenderDir } from '../src/adapters/output/write-render-dir.js';
import { loadFleet } from '../src/core/load/load-fleet.js';
import { freshSnapshot } from '../src/core/model/snapshot.js';
import { renderFleet } from '../src/core/render/render-fleet.js';
import { generateFleet } from './generate-fleet.js';
import { spread } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    templates: { type: 'string', default: '2000' },
    clusters: { type: 'string', default: '50' },
    runs: { type: 'string', default: '3' },
  },
});
const shape = { templates: Number(values.templates), clusters: Number(values.clusters) };
const loaded = loadFleet(generateFleet(shape));
if (!loaded.ok) throw new Error(`generated fleet does not load: ${loaded.errors[0]?.message}`);
const rendered = renderFleet(freshSnapshot(loaded.fleet));
const clusters = new Map([...rendered.clusters].map(([name, out]) => [name, out.files] as const));
const files = [...clusters.values()].reduce((n, f) => n + f.size, 0);
const oneChanged = withOneFileChanged(clusters);

async function timed(write: () => Promise<unknown[]>): Promise<{ ms: number; changes: number }> {
  const t0 = performance.now();
  const changes = await write();
  return { ms: performance.now() - t0, changes: changes.length };
}

const runs: { first: number; unchanged: number; oneChanged: number }[] = [];
for (let i = 0; i < Number(values.runs); i++) {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-write-'));
  try {
    const first = await timed(() => writeRenderDir(dir, clusters));
    const unchanged = await timed(() => writeRenderDir(dir, clusters));
    const changed = await timed(() => writeRenderDir(dir, oneChanged));
    if (first.changes !== files || unchanged.changes !== 0 || changed.changes !== 1) {
      throw new Error(`unexpected changes: ${first.changes}, ${unchanged.changes}, ${changed.changes}`);
    }
    runs.push({ first: first.ms, unchanged: unchanged.ms, oneChanged: changed.ms });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(
  JSON.stringify({
    scenario: 'write-render-dir',
    parameters: shape,
    files,
    firstWrite: spread(runs.map((r) => r.first)),
    unchanged: spread(runs.map((r) => r.unchanged)),
    oneChanged: spread(runs.map((r) => r.oneChanged)),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);

// The same render with one file of the middle cluster edited.
function withOneFileChanged(
  all: ReadonlyMap<string, ReadonlyMap<string, string>>,
): Map<string, ReadonlyMap<string, string>> {
  const names = [...all.keys()];
  const victim = names[Math.floor(names.length / 2)]!;
  const copy = new Map<string, ReadonlyMap<string, string>>(all);
  const victimFiles = new Map(all.get(victim));
  const [path, text] = [...victimFiles][Math.floor(victimFiles.size / 2)]!;
  victimFiles.set(path, `${text}# edited\n`);
  copy.set(victim, victimFiles);
  return copy;
}
