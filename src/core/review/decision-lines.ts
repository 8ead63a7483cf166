// The decision trailers a commit carries, as `gitfleet log` prints them under an entry: the
// cluster commit's own (an eviction that took objects off the cluster, the rollout step that
// moved or held it) and the decisions of the bindings commit of the same pass
// (core/failover/failover-trailers.ts, core/rollout/rollout-trailers.ts), which say why replicas
// left one cluster and landed on another, or why a cluster got a change before another.
import { parseTrailers } from '../publish/commit-trailers.js';
import type { ObjectSpec } from './parse-object-spec.js';

/** The trailer keys of failover and rollout decisions, in the order they are printed. */
export const decisionTrailerKeys = [
  'Gitfleet-Cluster-Judged',
  'Gitfleet-Taint',
  'Gitfleet-Eviction',
  'Gitfleet-Eviction-Done',
  'Gitfleet-Rebalance',
  'Gitfleet-Rollout',
  'Gitfleet-Rollback',
  // The template sources whose objects or records the commit changes (docs/sources.md#provenance).
  'Gitfleet-Template-Source',
] as const;

/** Returns a commit's decision trailers as `Key: value` lines, grouped by key in the order above. */
export function decisionLinesOf(message: string): string[] {
  const trailers = parseTrailers(message);
  return decisionTrailerKeys.flatMap((key) => (trailers.get(key) ?? []).map((v) => `${key}: ${v}`));
}

/** The decision keys about one object: the line names it (`Deployment/shop/web from member2: …`). */
const objectKeys = new Set(['Gitfleet-Eviction', 'Gitfleet-Eviction-Done', 'Gitfleet-Rebalance']);
/** The decision keys about one cluster: the line starts with it (`member2 +…`, `member2=Unknown`). */
const clusterKeys = new Set(['Gitfleet-Taint', 'Gitfleet-Cluster-Judged']);

/**
 * Returns the decision lines that concern the followed object on `cluster`: an eviction or
 * rebalance of that object (not of others the same pass moved), a taint or verdict of this
 * cluster or of a cluster such a line names, and the rollout lines (a rollout moves the
 * cluster's commit as a whole).
 */
export function decisionsAbout(
  lines: readonly string[],
  about: { object: ObjectSpec; cluster: string },
): string[] {
  const clusters = new Set([about.cluster]);
  const kept = new Set<string>();
  for (const line of lines) {
    const { key, value } = splitLine(line);
    if (!objectKeys.has(key)) continue;
    const named = objectNamed(key, value);
    if (named === undefined || !isSameObject(named.label, about.object)) continue;
    kept.add(line);
    if (named.from !== undefined) clusters.add(named.from);
  }
  return lines.filter((line) => {
    const { key, value } = splitLine(line);
    if (objectKeys.has(key)) return kept.has(line);
    if (clusterKeys.has(key)) return clusters.has(/^[^\s=]+/.exec(value)?.[0] ?? '');
    return true;
  });
}

function splitLine(line: string): { key: string; value: string } {
  const colon = line.indexOf(': ');
  return colon < 0 ? { key: line, value: '' } : { key: line.slice(0, colon), value: line.slice(colon + 2) };
}

// `Deployment/shop/web from member2: …` (evictions); `<rebalancer>: apps/Deployment/shop/web: …`.
function objectNamed(key: string, value: string): { label: string; from?: string } | undefined {
  if (key === 'Gitfleet-Rebalance') {
    const label = value.split(': ')[1];
    return label === undefined ? undefined : { label };
  }
  const m = /^(\S+) from ([^:\s]+):/.exec(value);
  return m ? { label: m[1]!, from: m[2]! } : undefined;
}

// A label is `Kind/namespace/name`, `Kind/name` (refLabel) or `group/Kind/namespace/name` (refKey).
function isSameObject(label: string, spec: ObjectSpec): boolean {
  const parts = label.split('/');
  const [group, kind, namespace, name] =
    parts.length === 4
      ? parts
      : parts.length === 3
        ? [undefined, ...parts]
        : [undefined, parts[0], '', parts[1]];
  if (kind?.toLowerCase() !== spec.kind.toLowerCase()) return false;
  if (namespace !== spec.namespace || name !== spec.name) return false;
  return group === undefined || spec.group === undefined || group.toLowerCase() === spec.group.toLowerCase();
}
