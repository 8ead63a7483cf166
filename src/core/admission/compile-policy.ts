// A ValidatingAdmissionPolicy with every expression compiled, or the compile errors: each names
// the field and its position (`spec.validations[1].expression: line 1, column 9: …`).
import type { AdmissionPolicy } from './admission-policy.js';
import { compileExpression, type CompiledExpression } from './compile-expression.js';

export interface CompiledPolicy {
  policy: AdmissionPolicy;
  matchConditions: { name: string; run: CompiledExpression }[];
  variables: { name: string; run: CompiledExpression }[];
  validations: { run: CompiledExpression; message?: CompiledExpression }[];
  auditAnnotations: { key: string; run: CompiledExpression }[];
  /** The compile errors, each with its field and position; none when it compiled. */
  errors: string[];
}

/** Returns the policy with its expressions compiled (a field that does not compile is listed in errors). */
export function compilePolicy(policy: AdmissionPolicy): CompiledPolicy {
  const errors: string[] = [];
  const compile = (field: string, text: string): CompiledExpression => {
    if (text.trim() === '') errors.push(`${field}: an expression is required`);
    const compiled = compileExpression(text);
    if (compiled.ok) return compiled.run;
    errors.push(`${field}: ${compiled.error}`);
    return () => ({ ok: false, error: compiled.error });
  };
  return {
    policy,
    matchConditions: policy.matchConditions.map((c, i) => ({
      name: c.name,
      run: compile(`spec.matchConditions[${i}].expression`, c.expression),
    })),
    variables: policy.variables.map((v, i) => ({
      name: v.name,
      run: compile(`spec.variables[${i}].expression`, v.expression),
    })),
    validations: policy.validations.map((v, i) => ({
      run: compile(`spec.validations[${i}].expression`, v.expression),
      ...(v.messageExpression === undefined
        ? {}
        : { message: compile(`spec.validations[${i}].messageExpression`, v.messageExpression) }),
    })),
    auditAnnotations: policy.auditAnnotations.map((a, i) => ({
      key: a.key,
      run: compile(`spec.auditAnnotations[${i}].valueExpression`, a.valueExpression),
    })),
    errors,
  };
}
