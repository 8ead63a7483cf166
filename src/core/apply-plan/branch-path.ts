// Reading an object's identity from its path in a cluster branch
// (docs/architecture.md#cluster-branches): `<namespace>/<Kind>[.<group>]/<name>.yaml` or
// `_cluster/<Kind>[.<group>]/<name>.yaml`. A kind has no dot, so the first dot of the middle part
// starts the group. The agent uses it to hold back pruning of an object whose file is there but
// does not parse.

/** Returns the refKey (`group/Kind/namespace/name`) an object path names, or undefined for other paths. */
export function refKeyOfPath(path: string): string | undefined {
  const parts = path.split('/');
  if (parts.length !== 3 || !parts[2]!.endsWith('.yaml')) return undefined;
  const [space, kindDir, file] = parts as [string, string, string];
  const dot = kindDir.indexOf('.');
  const kind = dot < 0 ? kindDir : kindDir.slice(0, dot);
  const group = dot < 0 ? '' : kindDir.slice(dot + 1);
  const name = file.slice(0, -'.yaml'.length);
  if (!space || !kind || !name) return undefined;
  return `${group}/${kind}/${space === '_cluster' ? '' : space}/${name}`;
}
