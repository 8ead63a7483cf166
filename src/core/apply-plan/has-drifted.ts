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
