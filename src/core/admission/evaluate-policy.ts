// One policy, through one binding, on one object (Kubernetes' validating admission policy
// dispatcher and validator, admission/plugin/policy/validating): matchConditions, then the
// variables, then each validation, once per param; a false validation is a failure with its
// message, an expression that errs (or runs out of its cost budget) a failure only under
// failurePolicy Fail. Each failure is reported with each of the binding's validationActions.
import type { CelInput } from '@bufbuild/cel';
import { CostMeter, perPolicyBudget } from './cel-cost.js';
import type { AdmissionBinding, ValidationAction } from './admission-policy.js';
import type { CompiledPolicy } from './compile-policy.js';
import type { CompiledExpression } from './compile-expression.js';

/** What a policy found on an object: a failure with an action, or an audit annotation. */
export interface AdmissionFinding {
  policy: string;
  binding: string;
  action: ValidationAction;
  message: string;
  reason?: string;
}

export interface PolicyRun {
  compiled: CompiledPolicy;
  binding: AdmissionBinding;
  /** The params to evaluate with, each a CEL value (null: the policy has no paramKind). */
  params: readonly CelInput[];
  /** object, oldObject, namespaceObject, request (CEL values). */
  vars: Record<string, CelInput>;
}

/** Returns the failures and audit annotations of a policy run on one object. */
export function evaluatePolicy(run: PolicyRun): AdmissionFinding[] {
  const { compiled, binding } = run;
  const findings: AdmissionFinding[] = [];
  const fail = (message: string, reason?: string) => {
    for (const action of binding.validationActions)
      findings.push({
        policy: compiled.policy.name,
        binding: binding.name,
        action,
        message,
        ...(reason ? { reason } : {}),
      });
  };
  const failed = (error: string) => {
    if (compiled.policy.failurePolicy === 'Fail') fail(error, 'InternalError');
  };
  for (const params of run.params) {
    const meter = new CostMeter();
    let left = perPolicyBudget;
    const exec = (expression: CompiledExpression, vars: Record<string, CelInput>) => {
      meter.startExpression(left);
      const result = expression(vars, meter);
      left -= meter.spent;
      return result;
    };
    const vars: Record<string, CelInput> = { ...run.vars, params, variables: {} };
    let matched = true;
    for (const condition of compiled.matchConditions) {
      const result = exec(condition.run, vars);
      if (!result.ok) {
        failed(`matchCondition '${condition.name}' resulted in error: ${result.error}`);
        matched = false;
        break;
      }
      if (result.value !== true) {
        matched = false;
        break;
      }
    }
    if (!matched) continue;
    const variables: Record<string, CelInput> = {};
    vars['variables'] = variables;
    let spent = false;
    for (const variable of compiled.variables) {
      // An erring variable is left out: an expression that reads it errs in its turn. Out of
      // budget, the whole run stops, as Kubernetes stops it.
      const result = exec(variable.run, vars);
      if (result.ok) variables[variable.name] = result.value as CelInput;
      else if (meter.exceeded) {
        failed(`variable '${variable.name}' resulted in error: ${result.error}`);
        spent = true;
        break;
      }
    }
    if (spent) continue;
    validate(compiled, vars, exec, fail, failed);
    audit(compiled, vars, exec, findings, binding);
  }
  return findings;
}

function validate(
  compiled: CompiledPolicy,
  vars: Record<string, CelInput>,
  exec: (e: CompiledExpression, v: Record<string, CelInput>) => ReturnType<CompiledExpression>,
  fail: (message: string, reason?: string) => void,
  failed: (error: string) => void,
): void {
  compiled.validations.forEach((validation, i) => {
    const source = compiled.policy.validations[i]!;
    const result = exec(validation.run, vars);
    if (!result.ok) return failed(`expression '${source.expression}' resulted in error: ${result.error}`);
    if (result.value === true) return;
    if (typeof result.value !== 'boolean')
      return failed(`expression '${source.expression}' did not return a bool`);
    // messageExpression wins when it gives a non-empty one-line string; else message, else the expression.
    let message = source.message ?? `failed expression: ${source.expression}`;
    if (validation.message) {
      const made = exec(validation.message, vars);
      if (made.ok && typeof made.value === 'string' && made.value.trim() !== '' && !made.value.includes('\n'))
        message = made.value;
    }
    fail(message, source.reason ?? 'Invalid');
  });
}

function audit(
  compiled: CompiledPolicy,
  vars: Record<string, CelInput>,
  exec: (e: CompiledExpression, v: Record<string, CelInput>) => ReturnType<CompiledExpression>,
  findings: AdmissionFinding[],
  binding: AdmissionBinding,
): void {
  for (const annotation of compiled.auditAnnotations) {
    const result = exec(annotation.run, vars);
    if (!result.ok || typeof result.value !== 'string') continue;
    findings.push({
      policy: compiled.policy.name,
      binding: binding.name,
      action: 'Audit',
      message: `audit annotation ${compiled.policy.name}/${annotation.key}: ${result.value}`,
    });
  }
}
