// Stage 1 of a render (docs/architecture.md#detect), with the render memo: which policy claims each
// template.
import type { Template } from '../model/fleet.js';
import type { Snapshot } from '../model/snapshot.js';
import {
  addDetection,
  detectTemplate,
  indexPolicies,
  type Detection,
  type DetectResult,
} from './detect-claims.js';
import type { SkipRules } from './skip-rules.js';
import { policyLabel } from '../model/propagation-policy.js';

/** A template's detection for each previous claim it was worked out with (at most two). */
export interface DetectionMemo {
  template: Template;
  /** previousPolicy: the previous claim's policy as `kind/namespace/name` ('' for none). */
  results: { previousPolicy: string; detection: Detection }[];
}

/**
 * Stage 1, per template. A detection is kept for the previous claim it was made with and, with
 * `ahead`, for its own claim: the next render reads a binding's own claim back as the previous
 * one, so working that one out now (it costs microseconds) makes the next render find it.
 */
export function detectTemplates(opts: {
  snapshot: Snapshot;
  skipRules: SkipRules;
  /** The last render's detections (RenderMemo.detections), by template key. */
  memo: ReadonlyMap<string, DetectionMemo> | undefined;
  /** Work out the detection for the template's own claim too (RenderOptions.ahead). */
  ahead: boolean;
}) {
  const { fleet, previous } = opts.snapshot;
  const index = indexPolicies(fleet.propagationPolicies);
  const result: DetectResult = { claims: [], skipped: [], unmatched: [] };
  const detections = new Map<string, DetectionMemo>();
  for (const template of fleet.templates) {
    const policy = previous.get(template.key)?.policy;
    const previousPolicy = policy ? policyLabel(policy) : '';
    const last = opts.memo?.get(template.key);
    const known = last?.template === template ? last.results : [];
    let detection = known.find((r) => r.previousPolicy === previousPolicy)?.detection;
    let results = known;
    if (!detection) {
      detection = detectTemplate(template, index, policy, opts.skipRules);
      results = [{ previousPolicy, detection }];
      const own = detection.type === 'claimed' ? detection.claim.policy : undefined;
      const ownKey = own ? policyLabel(own) : '';
      if (opts.ahead && ownKey !== previousPolicy) {
        results.push({
          previousPolicy: ownKey,
          detection: detectTemplate(template, index, own, opts.skipRules),
        });
      }
    }
    detections.set(template.key, { template, results });
    addDetection(result, detection);
  }
  return { result, detections };
}
