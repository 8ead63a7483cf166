// The overall limit of each FederatedResourceQuota, enforced on the render: Karmada's
// ResourceBinding webhook with FederatedQuotaEnforcement (pkg/webhook/resourcebinding/validating.go)
// denies a binding whose usage would take a quota of its namespace past spec.overall, and its
// enforcement controller reports the usage (calculateUsedWithResourceBinding).
//
// | step      | rule                                                                                  |
// |-----------|---------------------------------------------------------------------------------------|
// | usage     | a binding's scheduled replicas, summed over its clusters, × one replica's request (replica-resources.ts); nothing for a binding with no replicas or no request (helper.CalculateResourceUsage) |
// | counted   | only the resources the quota's overall names (filterResourceListByKeys)                |
// | order     | Karmada admits bindings as they come; a render has no arrival order, so the bindings placed by the previous render come first, then the new ones, each group by key |
// | admitted  | when, with its usage, every resource the quota names stays within overall (isAllowed); a binding counting nothing the quota names is always admitted |
// | refused   | otherwise: the template is held on every cluster (QuotaExceeded) and its usage is not counted |
import type { Binding, PreviousBinding } from '../model/binding.js';
import { quotaLabel, type FederatedResourceQuota } from '../model/federated-resource-quota.js';
import type { Template } from '../model/fleet.js';
import { parseQuantity } from '../model/parse-quantity.js';
import { formatQuantity, isBinaryResource } from '../format/format-quantity.js';
import { replicaResources, type ResourceTotals } from './replica-resources.js';

/** One quota's overall limits and what the admitted bindings use of them. */
export interface QuotaUsage {
  quota: FederatedResourceQuota;
  /** Resource name → the overall limit, in nano-units. */
  overall: ReadonlyMap<string, bigint>;
  /** Resource name (those of overall) → used by the admitted bindings, in nano-units. */
  used: ReadonlyMap<string, bigint>;
}

/** The quotas' verdicts over one render. */
export interface QuotaCheck {
  /** Binding key → why its placement is refused (the text of a QuotaExceeded diagnostic). */
  refused: ReadonlyMap<string, string>;
  /** Per quota, in the fleet's order. */
  usage: QuotaUsage[];
}

/** Returns which bindings the quotas refuse and what the admitted ones use. */
export function enforceQuotas(opts: {
  quotas: readonly FederatedResourceQuota[] | undefined;
  bindings: readonly Binding[];
  templates: ReadonlyMap<string, Template>;
  previous: ReadonlyMap<string, PreviousBinding>;
}): QuotaCheck {
  const refused = new Map<string, string>();
  const quotas = (opts.quotas ?? []).map((quota) => ({
    quota,
    overall: totalsOf(quota.overall),
    used: new Map<string, bigint>(),
  }));
  if (quotas.length === 0) return { refused, usage: [] };
  const namespaces = new Set(quotas.map((q) => q.quota.namespace));
  const candidates = opts.bindings
    .filter((b) => b.origin === 'policy' && namespaces.has(b.resource.namespace))
    .sort((a, b) => rankOf(a, opts.previous).localeCompare(rankOf(b, opts.previous)));
  for (const binding of candidates) {
    const template = opts.templates.get(binding.key);
    const usage = template ? bindingUsage(binding, template) : undefined;
    if (!usage) continue;
    const mine = quotas.filter((q) => q.quota.namespace === binding.resource.namespace);
    const refusal = mine.map((q) => exceeded(q, usage)).find((m) => m !== undefined);
    if (refusal !== undefined) {
      refused.set(binding.key, refusal);
      continue;
    }
    for (const q of mine)
      for (const [name, value] of usage)
        if (q.overall.has(name)) q.used.set(name, (q.used.get(name) ?? 0n) + value);
  }
  return { refused, usage: quotas };
}

function rankOf(binding: Binding, previous: ReadonlyMap<string, PreviousBinding>): string {
  return `${previous.has(binding.key) ? 0 : 1}${binding.key}`;
}

/** Returns a binding's usage (Karmada's CalculateResourceUsage), or undefined when it uses nothing. */
export function bindingUsage(binding: Binding, template: Template): ResourceTotals | undefined {
  if (binding.schedule.type !== 'Scheduled') return undefined;
  const replicas = binding.schedule.clusters.reduce((sum, c) => sum + c.replicas, 0);
  if (replicas === 0) return undefined;
  const perReplica = replicaResources(template);
  if (perReplica.size === 0) return undefined;
  return new Map([...perReplica].map(([name, value]) => [name, value * BigInt(replicas)]));
}

function exceeded(
  q: {
    quota: FederatedResourceQuota;
    overall: ReadonlyMap<string, bigint>;
    used: ReadonlyMap<string, bigint>;
  },
  usage: ResourceTotals,
): string | undefined {
  for (const [name, limit] of [...q.overall].sort((a, b) => a[0].localeCompare(b[0]))) {
    const adds = usage.get(name) ?? 0n;
    if (adds === 0n) continue;
    const sum = (q.used.get(name) ?? 0n) + adds;
    if (sum <= limit) continue;
    const f = (n: bigint) => formatQuantity(n, isBinaryResource(name));
    return (
      `exceeds ${quotaLabel(q.quota)} (${q.quota.source.file}) for resource ${name}: ` +
      `requested sum ${f(sum)}, limit ${f(limit)} (this placement asks ${f(adds)}; the others placed use ${f(sum - adds)})`
    );
  }
  return undefined;
}

function totalsOf(list: Readonly<Record<string, string>>): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const [name, text] of Object.entries(list)) {
    const nano = parseQuantity(text);
    if (nano !== undefined) totals.set(name, nano);
  }
  return totals;
}
