// Drift, judged as Flux does (fluxcd/pkg ssa/manager_diff.go hasDrifted): the server's dry-run of
// our apply against the live object. Whatever our apply would change differs between the two;
// fields we do not set, owned by other managers, cannot differ, so they never count as drift.
//
// Compared: the whole object except what the server rewrites on every write and what the
// agent never applies:
//
// | ignored                                  | why                                                   |
// |------------------------------------------|-------------------------------------------------------|
// | metadata.resourceVersion, generation     | bumped by any write, ours included                    |
// | metadata.managedFields                   | ownership moves without a value changing (a forced re-apply of equal values) |
// | status                                   | never in a manifest (the hub strips it); controllers write it between the read and the dry-run |
import { isMap, type KubeObject } from '../model/kube-object.js';

const ignoredMetadata = new Set(['resourceVersion', 'generation', 'managedFields']);

/** Returns whether applying would change the live object: the dry-run result differs from it. */
export function hasDrifted(live: KubeObject, dryRun: KubeObject): boolean {
  return !sameValue(comparable(live), comparable(dryRun));
}

function comparable(object: KubeObject): Record<string, unknown> {
  const { status: _status, metadata, ...rest } = object;
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) if (!ignoredMetadata.has(key)) meta[key] = value;
  return { ...rest, metadata: meta };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
  }
  return false;
}

/**
 * Returns the paths of the fields that differ between the live object and what our apply made of
 * it (`spec.replicas`, `metadata.labels.team`), sorted, at most `max` of them (then `…`): names
 * only, never a value, so a Secret's correction can be told. An array is one field; a key that is
 * not a plain word is quoted (`metadata.labels["app.kubernetes.io/name"]`).
 */
export function driftedFields(live: KubeObject, applied: KubeObject, max = 10): string[] {
  const paths: string[] = [];
  collectDiffs(comparable(live), comparable(applied), '', paths);
  paths.sort();
  return paths.length > max ? [...paths.slice(0, max), '…'] : paths;
}

function collectDiffs(a: unknown, b: unknown, path: string, out: string[]): void {
  if (sameValue(a, b)) return;
  if (!isMap(a) || !isMap(b)) {
    out.push(path || '.');
    return;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const step = /^[A-Za-z0-9_-]+$/.test(key) ? `${path ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`;
    collectDiffs(a[key], b[key], path + step, out);
  }
}
