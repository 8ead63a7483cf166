// A cluster's render with its admission findings applied: each object a Deny binding refuses is
// held (the hub keeps what the branch has for it, as for any render error) with an
// AdmissionDenied error; Warn gives an AdmissionWarning, Audit an AdmissionAudit info; policies
// and bindings kept for the check only leave the cluster's files. The output stays derived from
// last time's checked output where the input was derived from last time's input, so the hub
// still plans only the changed paths.
import type { Diagnostic } from '../model/diagnostic.js';
import { patchMap } from '../model/patched-map.js';
import type { AdmissionPolicy } from '../admission/admission-policy.js';
import { checkBindings } from '../admission/check-bindings.js';
import type { ClusterPolicies } from '../admission/cluster-policies.js';
import type { CompiledPolicy } from '../admission/compile-policy.js';
import type { AdmissionFinding } from '../admission/evaluate-policy.js';
import type { ClusterRender, RankedDiagnostic } from './assemble-clusters.js';
import type { ClusterOutput } from './cluster-output.js';

/** What the check of a cluster gave last time, for the output's derivation. */
export interface LastAdmission {
  input: ClusterRender;
  result: ClusterRender;
  /** The paths the check took out of the files: denied, or kept for the check only. */
  takenOut: ReadonlySet<string>;
}

const codes = { Deny: 'AdmissionDenied', Warn: 'AdmissionWarning', Audit: 'AdmissionAudit' } as const;
const severities = { Deny: 'error', Warn: 'warning', Audit: 'info' } as const;
const verbs = { Deny: 'denied', Warn: 'warned', Audit: 'audited' } as const;

/** Returns the cluster's render with the findings applied, and the paths the check took out of its files. */
export function applyAdmission(opts: {
  cluster: string;
  input: ClusterRender;
  policies: ClusterPolicies;
  findings: ReadonlyMap<string, readonly AdmissionFinding[]>;
  compiled: (policy: AdmissionPolicy) => CompiledPolicy;
  last: LastAdmission | undefined;
}): { result: ClusterRender; takenOut: ReadonlySet<string> } {
  const { cluster, input, policies } = opts;
  const removed = new Map<string, string | undefined>();
  const held = new Map(input.output.held);
  const diagnostics: RankedDiagnostic[] = [...input.diagnostics];
  const rank = (diagnostic: Diagnostic) => ({ unit: '', rank: '\uffff', diagnostic });
  for (const d of checkBindings({ cluster, policies, compiled: opts.compiled })) diagnostics.push(rank(d));
  for (const [path, found] of opts.findings) {
    const subject = labelOf(path);
    for (const f of found) {
      const message = `${verbs[f.action]} by ValidatingAdmissionPolicy/${f.policy} (binding ${f.binding}) on cluster ${cluster}: ${f.message}`;
      diagnostics.push(
        rank({ severity: severities[f.action], code: codes[f.action], subject, cluster, message }),
      );
    }
    const denial = found.find((f) => f.action === 'Deny');
    if (denial) {
      removed.set(path, undefined);
      held.set(
        path,
        `denied by ValidatingAdmissionPolicy/${denial.policy} (binding ${denial.binding}): ${denial.message}`,
      );
    }
  }
  for (const [path, p] of [...policies.policies, ...policies.bindings])
    if (p.checkOnly) removed.set(path, undefined);
  const output: ClusterOutput = {
    files: patchMap(input.output.files, removed),
    held: new Map([...held].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))),
  };
  const takenOut = new Set(removed.keys());
  const derived = derivedOf(opts, output, takenOut);
  if (derived) output.derived = derived;
  return { result: { output, diagnostics }, takenOut };
}

// The paths that changed since last time's checked output: the input's changed paths, and the
// paths the check took out of the files (denied, or kept for the check only) now and not last
// time or the other way round, or with another reason to hold them.
function derivedOf(
  opts: { input: ClusterRender; last: LastAdmission | undefined },
  output: ClusterOutput,
  takenOut: ReadonlySet<string>,
): ClusterOutput['derived'] {
  const { input, last } = opts;
  const from = input.output.derived;
  if (!last || !from || from.from !== last.input.output) return undefined;
  const paths = new Set(from.paths);
  const before = last.result.output;
  for (const path of new Set([...last.takenOut, ...takenOut]))
    if (last.takenOut.has(path) !== takenOut.has(path) || before.held.get(path) !== output.held.get(path))
      paths.add(path);
  return { from: before, paths };
}

/** Returns `Kind/namespace/name` (or `Kind/name`) of a cluster branch path. */
function labelOf(path: string): string {
  const [namespace, kindDir, file] = path.split('/');
  const kind = kindDir!.split('.')[0]!;
  const name = file!.replace(/\.yaml$/, '');
  return namespace === '_cluster' ? `${kind}/${name}` : `${kind}/${namespace}/${name}`;
}
