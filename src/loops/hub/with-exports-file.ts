// A cluster's output plus the hub's exports file (core/mcs/provider-exports.ts), for the
// providers of CrossCluster MultiClusterServices. As with the customizations file, the same
// output and the same text give the same object back, so an unchanged cluster is seen as
// unchanged at once, and an output derived from the last one stays derived while the text is
// the same.
import {
  branchExportsPath,
  branchExportsText,
  type ProvidedService,
} from '../../core/mcs/provider-exports.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';

const wrapped = new WeakMap<ClusterOutput, { text: string; output: ClusterOutput }>();

/** Returns the output with the exports file its branch needs, or the output itself when it needs none. */
export function withExportsFile(
  output: ClusterOutput,
  services: readonly ProvidedService[],
  current: ReadonlyMap<string, string>,
): ClusterOutput {
  const text = branchExportsText(services, current.has(branchExportsPath));
  if (text === undefined) return output;
  const last = wrapped.get(output);
  if (last?.text === text) return last.output;
  const files = new Map(output.files);
  files.set(branchExportsPath, text);
  const from = output.derived ? wrapped.get(output.derived.from) : undefined;
  const made: ClusterOutput = {
    files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    held: output.held,
    ...(output.derived && from?.text === text
      ? { derived: { from: from.output, paths: output.derived.paths } }
      : {}),
  };
  wrapped.set(output, { text, output: made });
  return made;
}
