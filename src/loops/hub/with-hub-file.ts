// A cluster's render plus one of the hub's own files under `.gitfleet/` (the interpreter
// customizations, the exports list). The same output and the same text give the same object
// back, so a pass that changed nothing for the cluster still sees "unchanged" at once
// (plan-cluster-branch.ts compares outputs by identity), and an output derived from the last one
// stays derived while the text is the same. When the text changes, the output is planned whole:
// the planner never looks at `.gitfleet/` paths among the changed ones.
import type { ClusterOutput } from '../../core/render/cluster-output.js';

const wrapped = new WeakMap<ClusterOutput, Map<string, { text: string; output: ClusterOutput }>>();

/** Returns the output with the file at `path` holding `text`, or the output itself when `text` is undefined. */
export function withHubFile(output: ClusterOutput, path: string, text: string | undefined): ClusterOutput {
  if (text === undefined) return output;
  const last = wrapped.get(output)?.get(path);
  if (last?.text === text) return last.output;
  const files = new Map(output.files);
  files.set(path, text);
  const from = output.derived ? wrapped.get(output.derived.from)?.get(path) : undefined;
  const made: ClusterOutput = {
    files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    held: output.held,
    ...(output.derived && from?.text === text
      ? { derived: { from: from.output, paths: output.derived.paths } }
      : {}),
  };
  const byPath = wrapped.get(output) ?? new Map<string, { text: string; output: ClusterOutput }>();
  byPath.set(path, { text, output: made });
  wrapped.set(output, byPath);
  return made;
}
