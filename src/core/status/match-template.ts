// `gitfleet status --template PATTERN`: which templates a pattern names. A pattern with a `/` is
// matched against the whole label, `Kind/namespace/name` (`Kind/name` for cluster-scoped
// templates), the kind without regard to case as kubectl takes it (`deployment/shop/web`); a
// pattern without one is matched against the name alone. `*` stands for any run of characters
// and `?` for one character; everything else stands for itself.
import type { ObjectRef } from '../model/object-ref.js';

/** Returns whether a `--template` pattern names the template. */
export function matchTemplate(pattern: string, ref: ObjectRef): boolean {
  const parts = pattern.split('/');
  if (parts.length === 1) return globMatch(pattern, ref.name);
  const want = ref.namespace ? [ref.kind, ref.namespace, ref.name] : [ref.kind, ref.name];
  if (parts.length !== want.length) return false;
  return parts.every((part, i) =>
    i === 0 ? globMatch(part.toLowerCase(), want[0]!.toLowerCase()) : globMatch(part, want[i]!),
  );
}

/** Returns whether the text matches the glob (`*` any run, `?` one character), whole. */
export function globMatch(glob: string, text: string): boolean {
  // Iterative matching with one backtrack point for the last `*`: linear in practice, and no
  // regular expression built from user input.
  let g = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && (glob[g] === '?' || glob[g] === text[t])) {
      g++;
      t++;
    } else if (g < glob.length && glob[g] === '*') {
      star = g++;
      resume = t;
    } else if (star >= 0) {
      g = star + 1;
      t = ++resume;
    } else return false;
  }
  while (g < glob.length && glob[g] === '*') g++;
  return g === glob.length;
}
