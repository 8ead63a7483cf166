import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import type { CommandArgsOverrider } from '../model/override-policy.js';
import type { JsonPatchOperation } from './apply-json-patch.js';
import { formatJsonPointer } from './json-pointer.js';
import type { OverrideOutcome } from './override-outcome.js';
import { patchObject } from './patch-object.js';
import { podContainersPath } from './pod-containers-path.js';

/**
 * Karmada's commandOverrider and argsOverrider (pkg/util/overridemanager/commandargsoverride.go),
 * for the kinds `podContainersPath` knows (others are left alone). Every container named
 * `containerName` (init containers excepted) gets a JSON-patch operation on its `command`/`args`:
 *
 * | operator | container has the list                    | container has no list            |
 * |----------|-------------------------------------------|----------------------------------|
 * | add      | replace with list + value                 | add value as a new list          |
 * | remove   | replace with list minus every value given | add an empty list                |
 */
export function applyCommandArgsOverrider(
  object: KubeObject,
  overrider: CommandArgsOverrider,
  target: 'command' | 'args',
): OverrideOutcome {
  const containersPath = podContainersPath(object.kind);
  if (!containersPath) return { ok: true, object };
  const containers = getPath(object, containersPath);
  if (containers === undefined || containers === null) return { ok: true, object };
  const pointer = formatJsonPointer(containersPath);
  if (!Array.isArray(containers)) return { ok: false, error: `${pointer}: not a list` };
  const operations: JsonPatchOperation[] = [];
  for (const [index, container] of containers.entries()) {
    if (!isMap(container) || container.name !== overrider.containerName) continue;
    const path = `${pointer}/${index}/${target}`;
    const current: unknown = container[target];
    if (current === undefined || current === null) {
      operations.push({ op: 'add', path, value: revise([], overrider) });
    } else if (Array.isArray(current)) {
      operations.push({ op: 'replace', path, value: revise(current.map(asText), overrider) });
    } else {
      return { ok: false, error: `${path}: not a list` };
    }
  }
  if (operations.length === 0) return { ok: true, object };
  const patched = patchObject(object, operations);
  return patched.ok ? patched : { ok: false, error: patched.error };
}

function revise(current: string[], overrider: CommandArgsOverrider): string[] {
  const values = overrider.value ?? [];
  if (overrider.operator === 'add') return [...current, ...values];
  return current.filter((item) => !values.includes(item));
}

function asText(item: unknown): string {
  return typeof item === 'string' ? item : JSON.stringify(item);
}
