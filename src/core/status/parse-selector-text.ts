import type { LabelSelector, LabelSelectorRequirement } from '../model/selectors.js';

export type SelectorTextResult = { ok: true; selector: LabelSelector } | { ok: false; message: string };

/**
 * Returns the label selector written as kubectl's `-l` takes it: comma-separated requirements
 * `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key` (exists)
 * and `!key` (does not exist). `key!=value` matches objects without the key too, as in
 * Kubernetes (`NotIn`).
 */
export function parseSelectorText(text: string): SelectorTextResult {
  const matchLabels: Record<string, string> = {};
  const matchExpressions: LabelSelectorRequirement[] = [];
  for (const part of splitRequirements(text)) {
    const requirement = parseRequirement(part);
    if (typeof requirement === 'string')
      return { ok: false, message: `invalid selector "${text}": ${requirement}` };
    // A second `key=value` on the same key must hold as well, so it becomes an expression.
    if (requirement.equality && !(requirement.key in matchLabels))
      matchLabels[requirement.key] = requirement.values[0]!;
    else matchExpressions.push(toExpression(requirement));
  }
  return {
    ok: true,
    selector: {
      ...(Object.keys(matchLabels).length > 0 ? { matchLabels } : {}),
      ...(matchExpressions.length > 0 ? { matchExpressions } : {}),
    },
  };
}

interface Requirement {
  key: string;
  operator: LabelSelectorRequirement['operator'];
  values: string[];
  equality?: boolean;
}

// Commas inside `( … )` separate values, not requirements.
function splitRequirements(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

const keyPattern = '[A-Za-z0-9][-A-Za-z0-9_./]*';
const valuePattern = '[-A-Za-z0-9_.]*';
const setRequirement = new RegExp(`^(${keyPattern})\\s+(in|notin)\\s*\\(([^()]*)\\)$`);
const equalityRequirement = new RegExp(`^(${keyPattern})\\s*(==|=|!=)\\s*(${valuePattern})$`);
const existence = new RegExp(`^(!?)\\s*(${keyPattern})$`);

function parseRequirement(part: string): Requirement | string {
  const set = setRequirement.exec(part);
  if (set) {
    const values = set[3]!.split(',').map((v) => v.trim());
    if (values.some((v) => !new RegExp(`^${valuePattern}$`).test(v))) return `bad value in "${part}"`;
    return { key: set[1]!, operator: set[2] === 'in' ? 'In' : 'NotIn', values };
  }
  const eq = equalityRequirement.exec(part);
  if (eq)
    return {
      key: eq[1]!,
      operator: eq[2] === '!=' ? 'NotIn' : 'In',
      values: [eq[3]!],
      equality: eq[2] !== '!=',
    };
  const exists = existence.exec(part);
  if (exists) return { key: exists[2]!, operator: exists[1] ? 'DoesNotExist' : 'Exists', values: [] };
  return `cannot read "${part}"`;
}

function toExpression(r: Requirement): LabelSelectorRequirement {
  return r.values.length > 0
    ? { key: r.key, operator: r.operator, values: r.values }
    : { key: r.key, operator: r.operator };
}
