// A cluster's render plus the hub's customizations file (core/interpret/branch-customizations.ts).
// The same render and the same file text give the same output object, so a pass that changed
// nothing for the cluster still sees "unchanged" at once (plan-cluster-branch.ts compares
// outputs by identity), and a render derived from the last one stays derived while the file
// text is the same. When the text changes, the output is planned whole: the planner never looks
// at `.gitfleet/` paths among the changed ones.
import {
  branchCustomizationsPath,
  branchCustomizationsText,
} from '../../core/interpret/branch-customizations.js';
import type { InterpreterCustomization } from '../../core/model/interpreter-customization.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';

const wrapped = new WeakMap<ClusterOutput, { text: string; output: ClusterOutput }>();

/** Returns the output with the customizations file the branch needs, or the output itself when it needs none. */
export function withCustomizationsFile(
  output: ClusterOutput,
  customizations: readonly InterpreterCustomization[],
  current: ReadonlyMap<string, string>,
): ClusterOutput {
  const text = branchCustomizationsText(
    customizations,
    output.files.keys(),
    current.has(branchCustomizationsPath),
  );
  if (text === undefined) return output;
  const last = wrapped.get(output);
  if (last?.text === text) return last.output;
  const files = new Map(output.files);
  files.set(branchCustomizationsPath, text);
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
