// Which files of a repo are fleet documents at all, before any FleetConfig is consulted:
// - only `*.yaml` and `*.yml` (lower case);
// - nothing under, or named, a segment that starts with '.': `.git/`, `.github/workflows/`,
//   `.gitlab-ci.yml`, `.gitfleet/` and editor droppings are tooling, not fleet documents.
// Every source adapter and the loader itself apply this same rule.

/** Returns whether a repo-relative path ('/' separators) can hold fleet documents. */
export function isFleetSourcePath(path: string): boolean {
  if (!path.endsWith('.yaml') && !path.endsWith('.yml')) return false;
  return !path.split('/').some((segment) => segment.startsWith('.') || segment === '');
}

/** Returns whether a directory name may contain fleet documents (adapters use it to skip whole trees). */
export function isFleetSourceDirectory(name: string): boolean {
  return name !== '' && !name.startsWith('.');
}
