// A policy's parts, each against a rendered fleet (docs/admission-policies.md): the binding's
// actions, matchConditions, variables, messages, selectors, exclusions, params, the variables an
// expression sees, and the bad input (what does not compile, runs too long, names what is missing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  admissionLines,
  baseFleet,
  configMapYaml,
  policyYaml,
  renderAdmissionFleet,
} from './admission-fleet.js';

const webPath = 'shop/Deployment.apps/web.yaml';

/** The base fleet with the max-replicas policy replaced by the given one. */
function withPolicy(opts: Parameters<typeof policyYaml>[0], more: Record<string, string> = {}) {
  const fleet = baseFleet();
  fleet.set('policies/max-replicas.yaml', policyYaml(opts));
  for (const [path, text] of Object.entries(more)) fleet.set(path, text);
  return renderAdmissionFleet(fleet);
}

test('Warn: the object is rendered, with a warning; Audit: rendered, recorded as info.', () => {
  const result = withPolicy({
    name: 'p',
    expression: 'object.spec.replicas <= 3',
    actions: ['Warn', 'Audit'],
  });
  assert.deepEqual(admissionLines(result), [
    'AdmissionAudit Deployment/shop/web @west: audited by ValidatingAdmissionPolicy/p (binding p-binding) on cluster west: failed expression: object.spec.replicas <= 3',
    'AdmissionWarning Deployment/shop/web @west: warned by ValidatingAdmissionPolicy/p (binding p-binding) on cluster west: failed expression: object.spec.replicas <= 3',
  ]);
  assert.equal(result.diagnostics.find((d) => d.code === 'AdmissionWarning')?.severity, 'warning');
  assert.equal(result.diagnostics.find((d) => d.code === 'AdmissionAudit')?.severity, 'info');
  assert.ok(result.clusters.get('west')!.files.has(webPath));
});

test('message is used when given; messageExpression wins over it.', () => {
  const plain = withPolicy({ name: 'p', expression: 'object.spec.replicas <= 3', message: 'too many' });
  assert.match(admissionLines(plain)[0]!, /: too many$/);
  const made = withPolicy({
    name: 'p',
    expression: 'object.spec.replicas <= 3',
    message: 'too many',
    messageExpression: "object.metadata.name + ' wants ' + string(object.spec.replicas)",
  });
  assert.match(admissionLines(made)[0]!, /: web wants 5$/);
});

test('matchConditions: an object whose condition is false is not checked.', () => {
  const extra = `  matchConditions:
    - {name: only-api, expression: "object.metadata.name == 'api'"}
`;
  const result = withPolicy({ name: 'p', expression: 'object.spec.replicas <= 0', extra });
  assert.deepEqual(
    admissionLines(result).map((l) => l.split(':')[0]),
    ['AdmissionDenied Deployment/shop/api @east', 'AdmissionDenied Deployment/shop/api @west'],
  );
});

test('variables are evaluated in order and read through `variables`.', () => {
  const extra = `  variables:
    - {name: replicas, expression: "object.spec.replicas"}
    - {name: limit, expression: "variables.replicas > 4 ? 'high' : 'ok'"}
`;
  const result = withPolicy({ name: 'p', expression: "variables.limit == 'ok'", extra });
  assert.deepEqual(
    admissionLines(result).map((l) => l.split(':')[0]),
    ['AdmissionDenied Deployment/shop/web @west'],
  );
});

test('The binding narrows the policy: objectSelector, namespaceSelector on the placed Namespace, excludeResourceRules.', () => {
  const on = (bindingExtra: string) =>
    admissionLines(withPolicy({ name: 'p', expression: 'false', bindingExtra })).map((l) => l.split(':')[0]);
  assert.deepEqual(on(`  matchResources: {objectSelector: {matchLabels: {app: api}}}\n`), [
    'AdmissionDenied Deployment/shop/api @east',
    'AdmissionDenied Deployment/shop/api @west',
  ]);
  assert.deepEqual(on(`  matchResources: {namespaceSelector: {matchLabels: {team: blog}}}\n`), []);
  assert.equal(on(`  matchResources: {namespaceSelector: {matchLabels: {team: shop}}}\n`).length, 4);
  assert.equal(
    on(`  matchResources: {namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop}}}\n`).length,
    4,
  );
  const exclude = `  matchResources:
    namespaceSelector: {}
    excludeResourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: ['*'], resources: [deployments], resourceNames: [web]}
`;
  assert.deepEqual(on(exclude), [
    'AdmissionDenied Deployment/shop/api @east',
    'AdmissionDenied Deployment/shop/api @west',
  ]);
});

test('A rule for other resources, or only for DELETE, does not take the rendered objects.', () => {
  const fleet = baseFleet();
  fleet.set(
    'policies/max-replicas.yaml',
    policyYaml({ name: 'p', expression: 'false' })
      .replace('resources: [deployments]', 'resources: [statefulsets]')
      .replace('ValidatingAdmissionPolicyBinding', 'ValidatingAdmissionPolicyBinding'),
  );
  assert.deepEqual(admissionLines(renderAdmissionFleet(fleet)), []);
  fleet.set(
    'policies/max-replicas.yaml',
    policyYaml({ name: 'p', expression: 'false' }).replace('[CREATE, UPDATE]', '[DELETE]'),
  );
  assert.deepEqual(admissionLines(renderAdmissionFleet(fleet)), []);
});

test('params: the binding finds its param on the cluster by name and namespace; a missing one denies unless Allow.', () => {
  const extra = `  paramKind: {apiVersion: v1, kind: ConfigMap}
`;
  const expression = 'object.spec.replicas <= int(params.data.maxReplicas)';
  const ref = (name: string, action = 'Deny') =>
    `  paramRef: {name: ${name}, namespace: shop, parameterNotFoundAction: ${action}}\n`;
  const limits = configMapYaml('limits', 'shop', { maxReplicas: '4' });
  const found = withPolicy(
    { name: 'p', expression, extra, bindingExtra: ref('limits') },
    { 'shop/limits.yaml': limits },
  );
  assert.deepEqual(
    admissionLines(found).map((l) => l.split(':')[0]),
    ['AdmissionDenied Deployment/shop/web @west'],
  );
  const missing = withPolicy(
    { name: 'p', expression, extra, bindingExtra: ref('nope') },
    { 'shop/limits.yaml': limits },
  );
  assert.equal(admissionLines(missing).length, 4);
  assert.match(
    admissionLines(missing)[0]!,
    /no params found for policy binding with `Deny` parameterNotFoundAction/,
  );
  const allowed = withPolicy({ name: 'p', expression, extra, bindingExtra: ref('nope', 'Allow') });
  assert.deepEqual(admissionLines(allowed), []);
});

test('params by selector: the policy runs once per matching param.', () => {
  const extra = `  paramKind: {apiVersion: v1, kind: ConfigMap}
`;
  const bindingExtra = `  paramRef: {namespace: shop, selector: {matchLabels: {kind: limit}}, parameterNotFoundAction: Deny}\n`;
  const result = withPolicy(
    {
      name: 'p',
      expression: 'object.spec.replicas <= int(params.data.max)',
      extra,
      bindingExtra,
      messageExpression: "'over ' + params.metadata.name",
    },
    {
      'shop/a.yaml': configMapYaml('a', 'shop', { max: '4' }, { kind: 'limit' }),
      'shop/b.yaml': configMapYaml('b', 'shop', { max: '1' }, { kind: 'limit' }),
    },
  );
  // api (1 replica) passes both; web has 2 (over b's 1) on east and 5 (over both) on west.
  assert.deepEqual(
    admissionLines(result).map((l) => l.replace(/^(\S+ \S+ \S+):.*: /, '$1 ')),
    [
      'AdmissionDenied Deployment/shop/web @east over b',
      'AdmissionDenied Deployment/shop/web @west over a',
      'AdmissionDenied Deployment/shop/web @west over b',
    ],
  );
});

test('The variables an expression sees: oldObject null, namespaceObject, request with the agent as user, no authorizer.', () => {
  const expression = [
    'oldObject == null',
    "namespaceObject.metadata.labels.team == 'shop'",
    "request.operation == 'CREATE'",
    "request.userInfo.username == 'system:serviceaccount:gitfleet-system:gitfleet-agent'",
    "request.resource.resource == 'deployments'",
    "request.kind.kind == 'Deployment' && request.namespace == 'shop'",
  ].join(' && ');
  assert.deepEqual(admissionLines(withPolicy({ name: 'p', expression })), []);
  const authz = admissionLines(
    withPolicy({ name: 'p', expression: 'authorizer.serviceAccount("a", "b") != null' }),
  );
  assert.equal(authz.length, 4);
  assert.match(authz[0]!, /resulted in error/);
});

test('An expression that does not compile: an error naming the policy, the field and the position; Fail denies what it matches, Ignore does not.', () => {
  const bad = withPolicy({ name: 'broken', expression: 'object.spec.replicas <= ' });
  const invalid = bad.diagnostics.filter((d) => d.code === 'AdmissionPolicyInvalid');
  assert.deepEqual(
    invalid.map((d) => `${d.subject} @${d.cluster}: ${d.message}`).sort(),
    ['east', 'west'].map(
      (c) =>
        `ValidatingAdmissionPolicy/broken @${c}: does not compile: spec.validations[0].expression: line 1, column 22: found < but expecting end of input`,
    ),
  );
  assert.ok(invalid.every((d) => d.severity === 'error'));
  assert.equal(bad.diagnostics.filter((d) => d.code === 'AdmissionDenied').length, 4);
  const fleet = baseFleet();
  fleet.set(
    'policies/max-replicas.yaml',
    policyYaml({ name: 'broken', expression: 'object.spec.replicas <= ' }).replace(
      'failurePolicy: Fail',
      'failurePolicy: Ignore',
    ),
  );
  const ignored = renderAdmissionFleet(fleet);
  assert.equal(ignored.diagnostics.filter((d) => d.code === 'AdmissionDenied').length, 0);
  assert.equal(ignored.diagnostics.filter((d) => d.code === 'AdmissionPolicyInvalid').length, 2);
});

test('An expression that runs too long is stopped at the per-expression cost limit and denies (failurePolicy Fail).', () => {
  const expression =
    '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, a + b + c + d + e + f > 0))))))';
  const lines = admissionLines(withPolicy({ name: 'slow', expression }));
  assert.equal(lines.length, 4);
  assert.match(lines[0]!, /cost limit exceeded: the expression's runtime cost exceeds its limit \(1000000\)/);
});

test('An expression that builds a huge value is stopped by the cost of its size, through variables too.', () => {
  const doubling = Array.from(
    { length: 26 },
    (_, i) => `    - {name: v${i + 1}, expression: "variables.v${i} + variables.v${i}"}`,
  ).join('\n');
  const extra = `  variables:\n    - {name: v0, expression: "'abcdefgh'"}\n${doubling}\n`;
  const lines = admissionLines(withPolicy({ name: 'huge', expression: 'size(variables.v26) > 0', extra }));
  assert.equal(lines.length, 4);
  assert.match(lines[0]!, /cost limit exceeded/);
});

test('A binding naming a missing policy, or a paramRef its policy does not take: AdmissionPolicyInvalid on the binding.', () => {
  const fleet = baseFleet();
  fleet.set(
    'policies/orphan.yaml',
    `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: orphan}
spec: {policyName: nowhere, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: stray-param}
spec: {policyName: max-replicas, validationActions: [Deny], paramRef: {name: x, parameterNotFoundAction: Allow}}
`,
  );
  const lines = admissionLines(renderAdmissionFleet(fleet)).filter((l) =>
    l.startsWith('AdmissionPolicyInvalid'),
  );
  assert.deepEqual(lines, [
    'AdmissionPolicyInvalid ValidatingAdmissionPolicyBinding/orphan @east: names ValidatingAdmissionPolicy/nowhere, which is not placed on cluster east',
    'AdmissionPolicyInvalid ValidatingAdmissionPolicyBinding/orphan @west: names ValidatingAdmissionPolicy/nowhere, which is not placed on cluster west',
    'AdmissionPolicyInvalid ValidatingAdmissionPolicyBinding/stray-param @east: has a paramRef, and ValidatingAdmissionPolicy/max-replicas has no paramKind',
    'AdmissionPolicyInvalid ValidatingAdmissionPolicyBinding/stray-param @west: has a paramRef, and ValidatingAdmissionPolicy/max-replicas has no paramKind',
  ]);
});

test('A policy and binding kept for the check only are not written to the clusters, and still deny.', () => {
  const result = withPolicy({
    name: 'max-replicas',
    expression: 'object.spec.replicas <= 3',
    annotations: 'gitfleet.io/admission: check-only',
  });
  const west = result.clusters.get('west')!;
  assert.deepEqual(
    [...west.files.keys()].filter((p) => p.includes('admissionregistration')),
    [],
  );
  assert.equal(west.files.has(webPath), false);
  assert.deepEqual(
    admissionLines(result).map((l) => l.split(':')[0]),
    ['AdmissionDenied Deployment/shop/web @west'],
  );
});
