// Stage 1 of a render (docs/architecture.md#detect): which policy claims each template.
import type { Template } from '../model/fleet.js';
import type { PolicyRef } from '../model/propagation-policy.js';
import type { ReuseHook } from '../model/reuse-hook.js';
import type { Snapshot } from '../model/snapshot.js';
import {
  addDetection,
  detectTemplate,
  indexPolicies,
  type Detection,
  type DetectResult,
} from './detect-claims.js';
import type { SkipRules } from './skip-rules.js';

/** What one template's detection depends on besides the fleet's policies and config. */
export interface DetectionInput {
  template: Template;
  /** The policy that claimed it in the previous render (the snapshot's `previous`), if any. */
  previous: PolicyRef | undefined;
}

/**
 * Stage 1: returns each template's detection (detectClaims), in template order. `reuse` may
 * give a detection kept from an earlier render for the same input (RenderOptions.memo).
 */
export function detectTemplates(opts: {
  snapshot: Snapshot;
  skipRules: SkipRules;
  reuse?: ReuseHook<DetectionInput, Detection>;
}): DetectResult {
  const { fleet, previous } = opts.snapshot;
  const index = indexPolicies(fleet.propagationPolicies);
  const detect = (input: DetectionInput) =>
    detectTemplate(input.template, index, input.previous, opts.skipRules);
  const result: DetectResult = { claims: [], skipped: [], unmatched: [] };
  for (const template of fleet.templates) {
    const input = { template, previous: previous.get(template.key)?.policy };
    addDetection(result, opts.reuse ? opts.reuse(input, detect) : detect(input));
  }
  return result;
}
