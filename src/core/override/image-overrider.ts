import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import type { ImageOverrider } from '../model/override-policy.js';
import type { JsonPatchOperation } from './apply-json-patch.js';
import { formatJsonPointer, parseJsonPointer, readJsonPointer } from './json-pointer.js';
import type { OverrideOutcome } from './override-outcome.js';
import { ANCHORED_DIGEST, ANCHORED_TAG, checkImage, formatImage, type ImageRef } from './parse-image.js';
import { patchObject } from './patch-object.js';
import { podContainersPath } from './pod-containers-path.js';

/**
 * Karmada's imageOverrider (pkg/util/overridemanager/imageoverride.go). Without a predicate it
 * rewrites the image of every container of the kinds `podContainersPath` knows (others are left
 * alone); with one, exactly the string at `predicate.path`. Each rewrite is a JSON-patch replace.
 *
 * | component  | add                        | replace          | remove              |
 * |------------|----------------------------|------------------|---------------------|
 * | Registry   | hostname + value           | hostname = value | no hostname         |
 * | Repository | repository + value         | repository = …   | no repository       |
 * | Tag        | (tag or digest) + value    | tag or digest = …| no tag (or digest)  |
 *
 * A Tag value is a tag when it looks like one, a digest when it looks like one (SetTagOrDigest),
 * and is ignored otherwise, as Karmada does.
 */
export function applyImageOverrider(object: KubeObject, overrider: ImageOverrider): OverrideOutcome {
  const planned = overrider.predicate
    ? planWithPredicate(object, overrider.predicate.path)
    : planAllContainers(object);
  if (!planned.ok) return planned;
  const operations: JsonPatchOperation[] = [];
  for (const { path, image } of planned.images) {
    const parsed = checkImage(image);
    if (!parsed.ok) return { ok: false, error: `${path}: invalid image "${image}": ${parsed.reason}` };
    operations.push({ op: 'replace', path, value: formatImage(overrideImage(parsed.ref, overrider)) });
  }
  const patched = patchObject(object, operations);
  return patched.ok ? patched : { ok: false, error: patched.error };
}

type ImagePlan = { ok: true; images: { path: string; image: string }[] } | { ok: false; error: string };

function planWithPredicate(object: KubeObject, path: string): ImagePlan {
  const tokens = parseJsonPointer(path);
  if (tokens === undefined || tokens.length === 0) {
    return { ok: false, error: `predicate.path "${path}" must start with "/"` };
  }
  const found = readJsonPointer(object, tokens);
  if (!found.found) return { ok: false, error: `predicate.path ${path}: path not found` };
  if (typeof found.value !== 'string')
    return { ok: false, error: `predicate.path ${path}: the value is not a string` };
  return { ok: true, images: [{ path, image: found.value }] };
}

// Karmada reads the containers through the typed PodSpec, so a container without an image has
// the empty image, which does not parse.
function planAllContainers(object: KubeObject): ImagePlan {
  const containersPath = podContainersPath(object.kind);
  if (!containersPath) return { ok: true, images: [] };
  const containers = getPath(object, containersPath);
  if (containers === undefined || containers === null) return { ok: true, images: [] };
  const pointer = formatJsonPointer(containersPath);
  if (!Array.isArray(containers)) return { ok: false, error: `${pointer}: not a list` };
  const images = containers.map((container: unknown, index) => {
    const image = isMap(container) && typeof container.image === 'string' ? container.image : '';
    return { path: `${pointer}/${index}/image`, image };
  });
  return { ok: true, images };
}

function overrideImage(ref: ImageRef, overrider: ImageOverrider): ImageRef {
  const value = overrider.value ?? '';
  const next = { ...ref };
  switch (overrider.component) {
    case 'Registry':
      next.hostname = pick(overrider.operator, ref.hostname, value);
      return next;
    case 'Repository':
      next.repository = pick(overrider.operator, ref.repository, value);
      return next;
    case 'Tag':
      return overrider.operator === 'remove'
        ? removeTagOrDigest(ref)
        : setTagOrDigest(ref, pick(overrider.operator, ref.tag || ref.digest, value));
  }
}

function pick(operator: ImageOverrider['operator'], current: string, value: string): string {
  if (operator === 'add') return current + value;
  if (operator === 'replace') return value;
  return '';
}

function setTagOrDigest(ref: ImageRef, value: string): ImageRef {
  if (ANCHORED_TAG.test(value)) return { ...ref, tag: value, digest: '' };
  if (ANCHORED_DIGEST.test(value)) return { ...ref, tag: '', digest: value };
  return ref;
}

function removeTagOrDigest(ref: ImageRef): ImageRef {
  return ref.tag ? { ...ref, tag: '' } : { ...ref, digest: '' };
}
