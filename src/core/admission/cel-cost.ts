// The cost limit of a CEL evaluation, as Kubernetes applies it to admission policies: every
// expression has a per-call budget (PerCallLimit, 1,000,000) and a policy's expressions together
// share a budget for one object (RuntimeCELCostBudget, 10,000,000). Kubernetes estimates a cost
// before running from the OpenAPI schema (maxLength, maxItems) and meters the run with cel-go's
// cost tracker; gitfleet has no schema for a rendered object, so it meters the run only
// (docs/admission-policies.md#cost): each function call and each comprehension step costs 1,
// and a call whose result is a string, bytes, list or map costs a tenth of its size more, as
// cel-go charges for traversing it. An expression over its budget is stopped at once.
import { isCelList, isCelMap, type parse } from '@bufbuild/cel';

type Expr = ReturnType<typeof parse>['expr'];

/** Kubernetes' per-expression runtime cost limit (apiserver/pkg/apis/cel PerCallLimit). */
export const perCallLimit = 1_000_000;
/** Kubernetes' runtime cost budget of one policy on one object (RuntimeCELCostBudget). */
export const perPolicyBudget = 10_000_000;
/** The name of the metering function wrapped around each call of an expression. */
export const costFunction = 'gitfleet.cost';

/** What one evaluation has spent, and when it is out of budget. */
export class CostMeter {
  spent = 0;
  exceeded: string | undefined;
  private limit = perCallLimit;

  /** Starts an expression: its limit is the per-call limit or what is left of the policy's budget. */
  startExpression(policyLeft: number): void {
    this.spent = 0;
    this.exceeded = undefined;
    this.limit = Math.min(perCallLimit, policyLeft);
  }

  /** Charges the cost of a call's result; throws once the expression is over its limit. */
  charge(value: unknown): void {
    this.spent += 1 + Math.ceil(sizeOf(value) / 10);
    if (this.spent > this.limit || this.exceeded) {
      this.exceeded ??=
        this.limit < perCallLimit
          ? `the policy's runtime cost budget (${perPolicyBudget}) is spent`
          : `the expression's runtime cost exceeds its limit (${perCallLimit})`;
      throw new Error(`cost limit exceeded: ${this.exceeded}`);
    }
  }
}

function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.length;
  if (isCelList(value) || isCelMap(value)) return value.size;
  return 0;
}

/**
 * Wraps every call and comprehension of a parsed expression in the metering function, in place;
 * `nextId` gives the new nodes ids past the parser's. Comprehension steps are calls, so each
 * iteration is charged too.
 */
export function meterExpression(expr: Expr, nextId: { value: bigint }): void {
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'callExpr':
      if (kind.value.target) meterExpression(kind.value.target, nextId);
      for (const arg of kind.value.args) meterExpression(arg, nextId);
      break;
    case 'listExpr':
      for (const e of kind.value.elements) meterExpression(e, nextId);
      return;
    case 'structExpr':
      for (const e of kind.value.entries) {
        if (e.keyKind.case === 'mapKey') meterExpression(e.keyKind.value, nextId);
        if (e.value) meterExpression(e.value, nextId);
      }
      return;
    case 'selectExpr':
      if (kind.value.operand) meterExpression(kind.value.operand, nextId);
      return;
    case 'comprehensionExpr': {
      const c = kind.value;
      for (const part of [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result])
        if (part) meterExpression(part, nextId);
      break;
    }
    default:
      return;
  }
  wrap(expr, nextId);
}

// The node becomes `gitfleet.cost(<the node as it was>)`: the same value, charged.
function wrap(expr: Expr, nextId: { value: bigint }): void {
  const inner = { ...expr };
  expr.id = nextId.value++;
  expr.exprKind = {
    case: 'callExpr',
    value: {
      $typeName: 'cel.expr.Expr.Call',
      function: costFunction,
      args: [inner],
    },
  } as Expr['exprKind'];
}
