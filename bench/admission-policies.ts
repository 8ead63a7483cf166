// ValidatingAdmissionPolicies for the admission benchmark (hub-pass.ts --admission N): N policies
// and their Deny bindings, kept for the check only, placed on every cluster, each a different
// kind of rule Kubernetes users write (replicas, images, labels, quantities, ports, names), all
// passing the generated fleet so that every object is evaluated by every policy that matches it.
// Measured (README's benchmark table): 50 policies over 2,000 templates × 50 clusters, the hub's
// incremental pass 893 ms CPU when each render compiled the policies again, 795 ms CPU once the
// compiled CEL is kept by expression text (core/admission/compile-expression.ts; 1 run, load ~30); on a quiet machine 258 ms wall, 342 ms CPU.
import type { SourceFile } from '../src/core/load/load-fleet.js';

const rules: { kinds: string[]; expression: string }[] = [
  { kinds: ['deployments'], expression: 'object.spec.replicas <= 100000' },
  {
    kinds: ['deployments'],
    expression:
      "object.spec.template.spec.containers.all(c, c.image.contains(':') && !c.image.endsWith(':latest'))",
  },
  {
    kinds: ['deployments', 'configmaps', 'services'],
    expression: "object.metadata.name.matches('^[a-z0-9-]+$')",
  },
  {
    kinds: ['deployments'],
    expression:
      "object.spec.template.spec.containers.all(c, !has(c.resources.requests.memory) || quantity(c.resources.requests.memory).isLessThan(quantity('64Gi')))",
  },
  {
    kinds: ['deployments'],
    expression:
      'object.spec.template.spec.containers.all(c, !has(c.ports) || c.ports.all(p, p.containerPort > 1024))',
  },
  { kinds: ['configmaps'], expression: '!has(object.data) || object.data.size() < 1000' },
  { kinds: ['services'], expression: "!has(object.spec.type) || object.spec.type != 'NodePort'" },
  {
    kinds: ['deployments'],
    expression: "has(object.metadata.labels) && 'app' in object.metadata.labels",
  },
];

/** Returns N policies and their bindings (check-only) and the policy that places them everywhere. */
export function admissionPolicies(count: number): SourceFile[] {
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    const rule = rules[i % rules.length]!;
    const groups = rule.kinds.includes('deployments') ? "['', apps]" : "['']";
    docs.push(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: rule-${i}, annotations: {gitfleet.io/admission: check-only}}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules: [{apiGroups: ${groups}, apiVersions: ['*'], operations: [CREATE, UPDATE], resources: [${rule.kinds.join(', ')}]}]
  variables: [{name: limit, expression: '${i}'}]
  validations:
    - expression: ${JSON.stringify(`variables.limit == ${i} && (${rule.expression})`)}
      message: rule ${i} fails
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: rule-${i}, annotations: {gitfleet.io/admission: check-only}}
spec: {policyName: rule-${i}, validationActions: [Deny]}
`);
  }
  const placement = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: admission-policies}
spec:
  resourceSelectors:
    - {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicy}
    - {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicyBinding}
  placement: {}
`;
  return [
    { path: 'admission/policies.yaml', content: docs.join('---\n') },
    { path: 'admission/placement.yaml', content: placement },
  ];
}
