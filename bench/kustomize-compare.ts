// The fairness check of the render scenario: kustomize's output for a cluster must hold the same
// objects as gitfleet's, once gitfleet's own bookkeeping labels and annotations are set aside.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { objectKey } from './kustomize-tree.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The outcome of comparing one cluster's two outputs. */
export interface OutputComparison {
  cluster: string;
  gitfleetObjects: number;
  kustomizeObjects: number;
  /** One line per object that is missing on one side or differs, empty when both agree. */
  differences: string[];
}

/** Returns the differences between gitfleet's files for a cluster and kustomize's YAML stream for it. */
export function compareOutputs(opts: {
  cluster: string;
  gitfleet: Iterable<string>;
  kustomize: string;
}): OutputComparison {
  const ours = byKey([...opts.gitfleet].map((text) => yaml.load(text) as Json));
  const theirs = byKey(yaml.loadAll(opts.kustomize) as Json[]);
  const differences: string[] = [];
  for (const [key, object] of ours) {
    const other = theirs.get(key);
    if (other === undefined) differences.push(`${key}: only in gitfleet's output`);
    else {
      const where = firstDifference(object, other, '');
      if (where !== undefined) differences.push(`${key}: differs at ${where}`);
    }
  }
  for (const key of theirs.keys()) if (!ours.has(key)) differences.push(`${key}: only in kustomize's output`);
  return { cluster: opts.cluster, gitfleetObjects: ours.size, kustomizeObjects: theirs.size, differences };
}

/** Returns the text of every file gitfleet rendered for a cluster under `dir`. */
export function readRenderedCluster(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.yaml') && statSync(join(dir, path)).isFile())
    .map((path) => readFileSync(join(dir, path), 'utf8'));
}

function byKey(objects: readonly Json[]): Map<string, Json> {
  const map = new Map<string, Json>();
  for (const object of objects) {
    if (!isObject(object)) continue;
    map.set(objectKey(object), withoutGitfleetKeys(object));
  }
  return map;
}

// gitfleet.io/* labels and annotations are the agent's bookkeeping, which kustomize has no
// equivalent for; everything else must match.
function withoutGitfleetKeys(object: { [key: string]: Json }): Json {
  const copy = structuredClone(object);
  const metadata = copy['metadata'];
  if (!isObject(metadata)) return copy;
  for (const field of ['labels', 'annotations']) {
    const map = metadata[field];
    if (!isObject(map)) continue;
    for (const key of Object.keys(map)) if (key.startsWith('gitfleet.io/')) delete map[key];
    if (Object.keys(map).length === 0) delete metadata[field];
  }
  return copy;
}

function firstDifference(a: Json, b: Json, path: string): string | undefined {
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of [...keys].sort()) {
      if (!(key in a) || !(key in b)) return `${path}/${key} (only on one side)`;
      const found = firstDifference(a[key]!, b[key]!, `${path}/${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path} (lengths ${a.length} and ${b.length})`;
    for (const [i, item] of a.entries()) {
      const found = firstDifference(item, b[i]!, `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return a === b ? undefined : `${path} (${JSON.stringify(a)} vs ${JSON.stringify(b)})`;
}

function isObject(x: Json | undefined): x is { [key: string]: Json } {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Returns a verdict over several clusters' comparisons, with the first differences. */
export function summarizeChecks(checks: readonly OutputComparison[]) {
  const differences = checks.flatMap((c) => c.differences.map((d) => `${c.cluster}: ${d}`));
  const objects = checks.reduce((n, c) => n + c.gitfleetObjects, 0);
  const clusters = checks.map((c) => c.cluster);
  const verdict =
    differences.length === 0
      ? `same objects on ${clusters.length} clusters (${objects} objects compared)`
      : `${differences.length} difference(s), first: ${differences[0]}`;
  return { verdict, clusters, objects, differences: differences.slice(0, 20) };
}
