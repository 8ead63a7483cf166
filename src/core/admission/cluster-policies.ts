// What one cluster's admission check needs from its rendered files: the ValidatingAdmissionPolicies
// and their bindings placed on it, the objects their paramKinds name (the params) and its
// Namespaces; and the key of all that (the policy set's hash), which with an object's text decides
// its verdict (admit-clusters.ts).
import * as jsyaml from 'js-yaml';
import type { KubeObject } from '../model/kube-object.js';
import {
  readAdmissionBinding,
  readAdmissionPolicy,
  type AdmissionBinding,
  type AdmissionPolicy,
} from './admission-policy.js';
import { hashText } from './hash-text.js';

const group = 'admissionregistration.k8s.io';
export const policyDir = `_cluster/ValidatingAdmissionPolicy.${group}/`;
export const bindingDir = `_cluster/ValidatingAdmissionPolicyBinding.${group}/`;
const namespaceDir = '_cluster/Namespace/';

/** The admission inputs of one cluster. */
export interface ClusterPolicies {
  /** Path → policy, and path → binding, sorted by path. */
  policies: Map<string, AdmissionPolicy>;
  bindings: Map<string, AdmissionBinding>;
  /** Namespace name → its object. */
  namespaces: Map<string, KubeObject>;
  /** `Kind[.group]` directory → the objects of that kind (the params of a paramKind). */
  params: Map<string, KubeObject[]>;
  /** The directories of the paramKinds, found or not. */
  paramDirs: ReadonlySet<string>;
  /** The hash of the texts above: the same key, the same verdicts for the same object text. */
  key: string;
}

/** Parses rendered YAML texts, each once per render (a text placed on fifty clusters is one). */
export class TextObjects {
  private readonly parsed = new Map<string, KubeObject>();
  private readonly policies = new Map<string, AdmissionPolicy>();
  private readonly bindings = new Map<string, AdmissionBinding>();

  /** Returns the object a rendered file holds. */
  objectOf(text: string): KubeObject {
    let object = this.parsed.get(text);
    if (!object) this.parsed.set(text, (object = jsyaml.load(text) as KubeObject));
    return object;
  }

  /** Returns the policy a rendered file holds: one object per text, so it compiles once. */
  policyOf(text: string): AdmissionPolicy {
    let policy = this.policies.get(text);
    if (!policy) this.policies.set(text, (policy = readAdmissionPolicy(this.objectOf(text))));
    return policy;
  }

  /** Returns the binding a rendered file holds. */
  bindingOf(text: string): AdmissionBinding {
    let binding = this.bindings.get(text);
    if (!binding) this.bindings.set(text, (binding = readAdmissionBinding(this.objectOf(text))));
    return binding;
  }
}

/** Returns the cluster's policies, or undefined when it has none (nothing to check there). */
export function clusterPolicies(
  files: ReadonlyMap<string, string>,
  texts: TextObjects,
): ClusterPolicies | undefined {
  const policies = new Map<string, AdmissionPolicy>();
  const bindings = new Map<string, AdmissionBinding>();
  const keyed: string[] = [];
  for (const [path, text] of files) {
    if (path.startsWith(policyDir)) policies.set(path, texts.policyOf(text));
    else if (path.startsWith(bindingDir)) bindings.set(path, texts.bindingOf(text));
    else continue;
    keyed.push(path, hashText(text));
  }
  if (policies.size === 0 && bindings.size === 0) return undefined;
  const paramDirs = new Set(
    [...policies.values()].flatMap((p) => (p.paramKind ? [kindDirOf(p.paramKind)] : [])),
  );
  const namespaces = new Map<string, KubeObject>();
  const params = new Map<string, KubeObject[]>();
  for (const [path, text] of files) {
    const dir = path.slice(path.indexOf('/') + 1, path.lastIndexOf('/'));
    const isNamespace = path.startsWith(namespaceDir);
    if (!isNamespace && !paramDirs.has(dir)) continue;
    const object = texts.objectOf(text);
    if (isNamespace) namespaces.set(object.metadata.name, object);
    if (paramDirs.has(dir)) params.set(dir, [...(params.get(dir) ?? []), object]);
    keyed.push(path, hashText(text));
  }
  return { policies, bindings, namespaces, params, paramDirs, key: hashText(keyed.join('\n')) };
}

/** Returns the branch directory of a kind: `Kind` for the core group, else `Kind.group`. */
export function kindDirOf(ref: { apiVersion: string; kind: string }): string {
  const slash = ref.apiVersion.indexOf('/');
  return slash < 0 ? ref.kind : `${ref.kind}.${ref.apiVersion.slice(0, slash)}`;
}
