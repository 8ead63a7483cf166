// A diff is often posted where many can read it (a pull request comment), so no Secret value is
// ever shown in one: not in plain text, not in base64, not in a multi-line value's lines. Both
// sides of a Secret's file are read and written again with every value of `data` and
// `stringData` (and the last-applied-configuration annotation, which repeats them) replaced by a
// marker saying only whether that key was added, changed or removed; the line diff of the two
// marked files then shows a changed key as `token: <redacted, changed>` and everything else of
// the Secret (metadata, type) as it is.
import * as jsyaml from 'js-yaml';
import { KUBE_YAML_SCHEMA } from '../load/kube-yaml-schema.js';
import { isMap } from '../model/kube-object.js';
import { emitYaml } from '../format/emit-yaml.js';

const SECRET_FIELDS = ['data', 'stringData'] as const;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const MAY_BE_SECRET = /^kind: *["']?Secret["']? *$/m;
const UNREADABLE = '# a Secret: its content is not shown (it could not be read to hide its values)\n';

/** Returns the two sides of a file with every Secret value replaced by a marker; other files as they are. */
export function redactSecretPair(
  a: string | undefined,
  b: string | undefined,
): { a: string | undefined; b: string | undefined } {
  if (!(a !== undefined && MAY_BE_SECRET.test(a)) && !(b !== undefined && MAY_BE_SECRET.test(b)))
    return { a, b };
  const before = readSecret(a);
  const after = readSecret(b);
  if (before === 'unreadable' || after === 'unreadable') {
    return { a: a === undefined ? a : UNREADABLE, b: b === undefined ? b : UNREADABLE };
  }
  if (before === 'other' && after === 'other') return { a, b };
  const base = before === 'other' ? undefined : before;
  const head = after === 'other' ? undefined : after;
  return {
    a: base === undefined ? a : emitYaml(markValues(base, head, 'base')),
    b: head === undefined ? b : emitYaml(markValues(head, base, 'head')),
  };
}

type Read = Record<string, unknown> | 'other' | 'unreadable' | undefined;

function readSecret(text: string | undefined): Read {
  if (text === undefined) return undefined;
  if (!MAY_BE_SECRET.test(text)) return 'other';
  let value: unknown;
  try {
    value = jsyaml.load(text, { schema: KUBE_YAML_SCHEMA });
  } catch {
    return 'unreadable';
  }
  if (!isMap(value)) return 'unreadable';
  return value['apiVersion'] === 'v1' && value['kind'] === 'Secret' ? value : 'other';
}

/** Returns a copy of `own` with its values marked, compared with `other` (the other side). */
function markValues(
  own: Record<string, unknown>,
  other: Record<string, unknown> | undefined,
  side: 'base' | 'head',
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...own };
  for (const field of SECRET_FIELDS) {
    if (!(field in own)) continue;
    const mine = own[field];
    const theirs = other?.[field];
    if (!isMap(mine)) {
      out[field] = marker(other !== undefined && JSON.stringify(mine) !== JSON.stringify(theirs), side);
      continue;
    }
    const marked: Record<string, string> = {};
    for (const [key, value] of Object.entries(mine)) {
      const counterpart = isMap(theirs) && Object.hasOwn(theirs, key) ? theirs[key] : undefined;
      if (other !== undefined && counterpart === undefined)
        marked[key] = side === 'base' ? '<redacted, removed>' : '<redacted, added>';
      else
        marked[key] = marker(
          other !== undefined && JSON.stringify(value) !== JSON.stringify(counterpart),
          side,
        );
    }
    out[field] = marked;
  }
  const metadata = own['metadata'];
  const annotations = isMap(metadata) ? metadata['annotations'] : undefined;
  if (isMap(metadata) && isMap(annotations) && Object.hasOwn(annotations, LAST_APPLIED)) {
    const theirMeta = other?.['metadata'];
    const theirAnnotations = isMap(theirMeta) ? theirMeta['annotations'] : undefined;
    const changed =
      other !== undefined &&
      (!isMap(theirAnnotations) || theirAnnotations[LAST_APPLIED] !== annotations[LAST_APPLIED]);
    out['metadata'] = { ...metadata, annotations: { ...annotations, [LAST_APPLIED]: marker(changed, side) } };
  }
  return out;
}

function marker(changed: boolean, side: 'base' | 'head'): string {
  return changed && side === 'head' ? '<redacted, changed>' : '<redacted>';
}
