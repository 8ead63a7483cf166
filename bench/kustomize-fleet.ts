// A generated fleet laid out for both sides of the render scenario: the fleet repo gitfleet
// renders, and the kustomize tree of the same fleet (kustomize-tree.ts).
import { join } from 'node:path';
import { loadFleet, type SourceFile } from '../src/core/load/load-fleet.js';
import { freshSnapshot } from '../src/core/model/snapshot.js';
import { renderFleet } from '../src/core/render/render-fleet.js';
import { writeKustomizeTree } from './kustomize-tree.js';
import { writeSourceDir } from './lib/scratch-dir.js';

/** A prepared fleet: its source directory, each cluster's kustomize overlay, the objects rendered. */
export interface KustomizeFleet {
  fleetDir: string;
  overlays: [cluster: string, dir: string][];
  objects: number;
}

/** Writes the fleet repo to `dir/repo` and its kustomize tree to `dir/kustomize`; returns where they are. */
export function prepareKustomizeFleet(dir: string, files: readonly SourceFile[]): KustomizeFleet {
  const fleetDir = writeSourceDir(join(dir, 'repo'), files);
  const loaded = loadFleet(files);
  if (!loaded.ok) throw new Error(`generated fleet does not load: ${loaded.errors[0]?.message}`);
  const render = renderFleet(freshSnapshot(loaded.fleet));
  const trees = writeKustomizeTree({ files, fleet: loaded.fleet, render, dir: join(dir, 'kustomize') });
  const objects = [...render.clusters.values()].reduce((n, c) => n + c.files.size, 0);
  return { fleetDir, overlays: [...trees], objects };
}
