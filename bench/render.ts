// Benchmark: load + render a generated fleet (default 2,000 templates × 50 clusters) in memory.
// Prints wall time per phase and peak RSS. Not a test: numbers go to the README.
//   node build/bench/render.js [--templates N] [--clusters M] [--runs R] [--json]
import { parseArgs } from 'node:util';
import { loadFleet } from '../src/core/load/load-fleet.js';
import { freshSnapshot } from '../src/core/model/snapshot.js';
import { renderFleet } from '../src/core/render/render-fleet.js';
import { generateFleet } from './generate-fleet.js';

const { values } = parseArgs({
  options: {
    templates: { type: 'string', default: '2000' },
    clusters: { type: 'string', default: '50' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const shape = { templates: Number(values.templates), clusters: Number(values.clusters) };
const files = generateFleet(shape);

const runs: { load: number; render: number; objects: number; distinct: number }[] = [];
for (let i = 0; i < Number(values.runs); i++) {
  const t0 = performance.now();
  const loaded = loadFleet(files);
  const t1 = performance.now();
  if (!loaded.ok) throw new Error(`generated fleet does not load: ${loaded.errors[0]?.message}`);
  const result = renderFleet(freshSnapshot(loaded.fleet));
  const t2 = performance.now();
  let objects = 0;
  const distinct = new Set<string>();
  for (const out of result.clusters.values()) {
    objects += out.files.size;
    for (const text of out.files.values()) distinct.add(text);
  }
  runs.push({ load: t1 - t0, render: t2 - t1, objects, distinct: distinct.size });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const report = {
  scenario: 'render',
  parameters: shape,
  loadMs: Math.round(median(runs.map((r) => r.load))),
  renderMs: Math.round(median(runs.map((r) => r.render))),
  totalMs: Math.round(median(runs.map((r) => r.load + r.render))),
  objects: runs[0]!.objects,
  distinctObjects: runs[0]!.distinct,
  peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
};
console.log(values.json ? JSON.stringify(report) : report);
