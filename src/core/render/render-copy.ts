// One copy of a template for one cluster, as Karmada's ensureWork makes it
// (pkg/controllers/binding/common.go): deep copy, revise replicas to the cluster's share, apply
// overrides (last: they can override anything), strip server fields, add gitfleet's metadata,
// emit canonical YAML. A refusal (a Tenant's rules, an override or script error, the size limit)
// is an outcome naming the object's path, never an empty copy.
import type { Binding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';
import { deepCopy, isMap, type KubeObject } from '../model/kube-object.js';
import type { ResourceInterpreter } from '../model/resource-interpreter.js';
import type { Tenant } from '../model/tenant.js';
import { applyOverriders } from '../override/apply-overriders.js';
import { reviseReplicas } from '../override/revise-replicas.js';
import type { SelectedOverriders } from '../override/select-overriders.js';
import { reviseTemplateReplicas } from '../interpret/revise-template-replicas.js';
import { injectPreservedLabels } from '../failover/state-preservation.js';
import { emitYaml } from '../format/emit-yaml.js';
import { objectPath } from '../format/object-path.js';
import type { Tenancy } from '../tenancy/create-tenancy.js';
import { formatTenantRefusal, type TenantRefusal } from '../tenancy/tenant-refusal.js';
import { checkObjectSize } from './check-render-size.js';
import { decorateObject } from './decorate-object.js';
import { overrideEncrypted, sealEncryptedCopy } from './render-encrypted-copy.js';
import { stripServerFields } from './strip-server-fields.js';

export type RenderOutcome =
  | { ok: true; path: string; text: string }
  /**
   * `tooLarge`: refused for its size (check-render-size.ts), not for an override or a script;
   * `tenantRefused`: refused by a Tenant's rules (core/tenancy); `noRecipient`: an encrypted file
   * placed on a cluster whose age key is not among its recipients; `quotaExceeded`: refused by a
   * FederatedResourceQuota's overall limit (core/quota).
   */
  | {
      ok: false;
      path: string;
      error: string;
      tooLarge?: true;
      tenantRefused?: true;
      noRecipient?: true;
      quotaExceeded?: true;
    };

/** What one copy is made from. */
export interface CopyInput {
  template: Template;
  binding: Binding;
  /** The cluster's share of the replicas, when the copy's replicas are revised. */
  replicas?: number;
  /** The cluster's share of a Job's completions. */
  completions?: number;
  selected: readonly SelectedOverriders[];
  /** The referrers scheduled on the cluster. */
  requiredBy: string[];
  /** The member cluster keeps the replicas: they are left out of the copy. */
  keep: boolean;
  interpreter: ResourceInterpreter | undefined;
  /** Application failover's preserved labels. */
  preserved?: Readonly<Record<string, string>>;
  /** The tenants' rules, when the fleet has tenants. */
  tenancy: Tenancy | undefined;
}

/** Returns the copy's canonical YAML at its path, or why it is refused. */
export function renderCopy(opts: CopyInput): RenderOutcome {
  const { template } = opts;
  const path = objectPath(template.ref);
  const { tenant, refused } = tenancyOf(opts.tenancy, template, opts.selected);
  if (refused)
    return {
      ok: false,
      path,
      error: formatTenantRefusal(refused, template.source.file),
      tenantRefused: true,
    };
  if (template.interpreted?.error) return { ok: false, path, error: template.interpreted.error };
  const custom =
    opts.replicas === undefined
      ? undefined
      : reviseTemplateReplicas(template, opts.replicas, opts.interpreter);
  if (custom && !custom.ok) return { ok: false, path, error: custom.error };
  let object: KubeObject = custom
    ? custom.object
    : opts.replicas === undefined
      ? deepCopy(template.object)
      : reviseReplicas(
          template.object,
          opts.replicas,
          opts.completions === undefined ? {} : { completions: opts.completions },
        );
  if (opts.selected.length > 0) {
    const outcome = template.encrypted
      ? overrideEncrypted(template, object, opts.selected)
      : applyOverriders(object, opts.selected);
    if (!outcome.ok) return { ok: false, path, error: outcome.error };
    object = outcome.object;
  }
  stripServerFields(object);
  if (opts.keep && isMap(object.spec)) delete object.spec.replicas;
  decorateObject(object, opts.binding, template.source.file, opts.requiredBy, tenant);
  if (opts.preserved) injectPreservedLabels(object, opts.preserved);
  const sealed = template.encrypted ? sealEncryptedCopy(template, object) : undefined;
  if (sealed !== undefined) return { ok: false, path, error: sealed };
  const text = emitYaml(object, { keepOrder: template.encrypted !== undefined });
  const tooLarge = checkObjectSize(object, text);
  if (tooLarge !== undefined) return { ok: false, path, error: tooLarge, tooLarge: true };
  return { ok: true, path, text };
}

// The template's tenant and, when another tenant's override rules select it, the refusal.
function tenancyOf(
  tenancy: Tenancy | undefined,
  template: Template,
  selected: readonly SelectedOverriders[],
): { tenant?: Tenant; refused?: TenantRefusal } {
  if (!tenancy) return {};
  const tenant = tenancy.ownerOf(template);
  const refused =
    selected.length > 0
      ? tenancy.checkOverrides(
          template,
          selected.map((s) => s.policy),
        )
      : undefined;
  return { ...(tenant ? { tenant } : {}), ...(refused ? { refused } : {}) };
}
