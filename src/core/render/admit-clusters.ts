// The admission stage of a render (docs/admission-policies.md): every object as rendered for a
// cluster, checked by the ValidatingAdmissionPolicies and bindings rendered for that cluster. An
// object a Deny binding refuses is held on that cluster (its last good state stays), with an
// AdmissionDenied error; Warn is a warning, Audit an info. A policy or binding kept for the check
// only (admission-policy.ts checkOnlyAnnotation) is not written to the cluster.
//
// Incremental (the `admission` row of the render memo table): a cluster whose render is last
// time's keeps last time's result; else its policy set's key is worked out again (from last time
// when no policy, binding, param or Namespace file changed), and an object is evaluated only when
// its text was not seen under that key before. Clusters with one policy set share verdicts: a
// Duplicated template's copy, one text on fifty clusters, is evaluated once.
import type { AdmissionPolicy } from '../admission/admission-policy.js';
import { admitObject } from '../admission/admit-object.js';
import { clusterPolicies, TextObjects, type ClusterPolicies } from '../admission/cluster-policies.js';
import { compilePolicy, type CompiledPolicy } from '../admission/compile-policy.js';
import type { AdmissionFinding } from '../admission/evaluate-policy.js';
import type { ClusterRender } from './assemble-clusters.js';
import { applyAdmission, type LastAdmission } from './apply-admission.js';

/** What the admission stage keeps for the next render. */
export interface AdmissionMemo {
  clusters: ReadonlyMap<string, ClusterAdmission>;
  /** Policy-set key → object text → what the policies found on it (empty: admitted). */
  verdicts: ReadonlyMap<string, ReadonlyMap<string, readonly AdmissionFinding[]>>;
}

/** One cluster's check: what it was made from and what it gave. */
export interface ClusterAdmission extends LastAdmission {
  policies: ClusterPolicies | undefined;
  /** Path → what the policies found there (only paths with findings). */
  findings: ReadonlyMap<string, readonly AdmissionFinding[]>;
}

/** Returns every cluster's render with its objects checked, and the memo for the next render. */
export function admitClusters(
  clusters: ReadonlyMap<string, ClusterRender>,
  memo: AdmissionMemo | undefined,
): { clusters: Map<string, ClusterRender>; memo: AdmissionMemo } {
  const texts = new TextObjects();
  const compiledPolicies = new WeakMap<AdmissionPolicy, CompiledPolicy>();
  const compiled = (policy: AdmissionPolicy) => {
    let made = compiledPolicies.get(policy);
    if (!made) compiledPolicies.set(policy, (made = compilePolicy(policy)));
    return made;
  };
  const kept = new Map<string, ClusterAdmission>();
  const verdicts = new Map<string, Map<string, readonly AdmissionFinding[]>>();
  const result = new Map<string, ClusterRender>();
  for (const [name, input] of clusters) {
    const last = memo?.clusters.get(name);
    const entry =
      last && last.input === input
        ? last
        : admitCluster({ name, input, last, texts, compiled, verdicts, lastVerdicts: memo?.verdicts });
    if (entry.policies && !verdicts.has(entry.policies.key))
      verdicts.set(entry.policies.key, new Map(memo?.verdicts.get(entry.policies.key)));
    kept.set(name, entry);
    result.set(name, entry.result);
  }
  return { clusters: result, memo: { clusters: kept, verdicts } };
}

function admitCluster(opts: {
  name: string;
  input: ClusterRender;
  last: ClusterAdmission | undefined;
  texts: TextObjects;
  compiled: (policy: AdmissionPolicy) => CompiledPolicy;
  verdicts: Map<string, Map<string, readonly AdmissionFinding[]>>;
  lastVerdicts: AdmissionMemo['verdicts'] | undefined;
}): ClusterAdmission {
  const { input, last, texts } = opts;
  const files = input.output.files;
  const derived = last && input.output.derived?.from === last.input.output ? input.output.derived : undefined;
  const policies =
    derived && last && ![...derived.paths].some((p) => isPolicyInput(p, last.policies))
      ? last.policies
      : clusterPolicies(files, texts);
  if (!policies) return { input, policies, findings: new Map(), result: input, takenOut: new Set() };
  let seen = opts.verdicts.get(policies.key);
  if (!seen) opts.verdicts.set(policies.key, (seen = new Map(opts.lastVerdicts?.get(policies.key))));
  const sameSet = derived !== undefined && last?.policies?.key === policies.key;
  const findings = new Map(sameSet ? last.findings : []);
  for (const path of sameSet ? derived.paths : files.keys()) {
    const text = files.get(path);
    let found = text === undefined ? undefined : seen.get(text);
    if (text !== undefined && found === undefined) {
      found = admitObject({ object: texts.objectOf(text), cluster: policies, compiled: opts.compiled });
      seen.set(text, found);
    }
    if (found && found.length > 0) findings.set(path, found);
    else findings.delete(path);
  }
  const { result, takenOut } = applyAdmission({
    cluster: opts.name,
    input,
    policies,
    findings,
    compiled: opts.compiled,
    last,
  });
  return { input, policies, findings, result, takenOut };
}

// A path whose change can change the policy set: a policy, binding, Namespace or param file.
function isPolicyInput(path: string, policies: ClusterPolicies | undefined): boolean {
  if (path.startsWith('_cluster/ValidatingAdmissionPolicy') || path.startsWith('_cluster/Namespace/'))
    return true;
  if (!policies || policies.paramDirs.size === 0) return false;
  return policies.paramDirs.has(path.slice(path.indexOf('/') + 1, path.lastIndexOf('/')));
}
