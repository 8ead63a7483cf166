// Path patterns of the FleetConfig's `paths.include` / `paths.exclude`.
//
// | pattern              | matches                                                       |
// |----------------------|---------------------------------------------------------------|
// | `apps/` or `apps`    | the path `apps` and everything under the directory `apps/`    |
// | `apps/*.yaml`        | `*` is any run of characters within one path segment          |
// | `apps/**`            | `**` is any run of characters across segments                 |
// | `**/secret.yaml`     | `secret.yaml` at any depth, the root included                 |
// | `a?c.yaml`           | `?` is one character other than '/'                           |
// A pattern that matches a directory matches everything under it. Paths are relative to the
// repo root with '/' separators; a leading `/` or `./` in a pattern is ignored.

/** A compiled path pattern. */
export type PathMatcher = (path: string) => boolean;

/** Returns a matcher for one pattern, compiled once. */
export function compilePathPattern(pattern: string): PathMatcher {
  const clean = pattern.replace(/^(\.\/|\/)+/, '');
  if (!/[*?]/.test(clean)) {
    const dir = clean.endsWith('/') ? clean : `${clean}/`;
    const exact = clean.replace(/\/+$/, '');
    return (path) => clean === '' || path === exact || path.startsWith(dir);
  }
  const regex = new RegExp(`^${globToRegex(clean.replace(/\/+$/, ''))}(?:/.*)?$`);
  return (path) => regex.test(path);
}

/** Returns whether a path is read under include/exclude: included (or no include given) and not excluded. */
export function isPathSelected(
  path: string,
  include: readonly PathMatcher[],
  exclude: readonly PathMatcher[],
): boolean {
  if (include.length > 0 && !include.some((m) => m(path))) return false;
  return !exclude.some((m) => m(path));
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      out += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (ch === '*') {
      out += '[^/]*';
    } else if (ch === '?') {
      out += '[^/]';
    } else {
      out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return out;
}
