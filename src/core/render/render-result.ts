// A render's result (RenderResult), from what the stages of the pipeline returned
// (render-fleet.ts): each cluster's output, the bindings and their placements, and every
// stage's diagnostics, in the order of the stages.
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Fleet, Template } from '../model/fleet.js';
import { refLabel } from '../model/object-ref.js';
import type { DetectResult } from '../detect/detect-claims.js';
import { findUnregisteredClusters } from '../schedule/find-unregistered-clusters.js';
import type { scheduleClaims } from '../schedule/schedule-claims.js';
import type { FollowResult } from '../follow/place-followers.js';
import type { MultiClusterServices } from '../mcs/render-multi-cluster-services.js';
import type { QuotaCheck, QuotaUsage } from '../quota/enforce-quotas.js';
import type { ClusterRender } from './assemble-clusters.js';
import type { ClusterOutput } from './cluster-output.js';
import type { RenderMemo } from './render-memo.js';

export interface RenderResult {
  /** What this render computed, to pass to the next render. */
  memo: RenderMemo;
  clusters: Map<string, ClusterOutput>;
  /** Claimed templates and their followers, sorted by key. */
  bindings: Binding[];
  /**
   * Each claimed binding's placement as the next render reads it back (binding key →
   * previousBindingOf(binding)). A caller that records bindings and passes these same objects
   * back as the next snapshot's `previous` lets that render see at once that nothing moved.
   */
  placements: ReadonlyMap<string, PreviousBinding>;
  diagnostics: Diagnostic[];
  /** Each FederatedResourceQuota's overall limits and what the placed templates use of them (core/quota). */
  quotas?: QuotaUsage[];
  stats: { templates: number; claimed: number; followers: number; skipped: number; unmatched: number };
}

/** Returns the render's result, from what its stages returned. */
export function resultOf(stages: {
  fleet: Fleet;
  detected: DetectResult;
  bound: ReturnType<typeof scheduleClaims>;
  followed: FollowResult;
  services: MultiClusterServices;
  bindings: Binding[];
  assembled: ReadonlyMap<string, ClusterRender>;
  quotas: QuotaCheck;
  memo: RenderMemo;
}): RenderResult {
  const { fleet, detected, bound, followed, services, assembled } = stages;
  const following = new Set(followed.followers.map((f) => f.key));
  // A MultiClusterService is read by the hub, not placed: no policy needs to match it.
  for (const t of fleet.templates) if (t.ref.kind === 'MultiClusterService') following.add(t.key);
  const made = new Set(services.generated.map((t) => `depends on ${refLabel(t.ref)},`));
  return {
    clusters: new Map([...assembled].map(([name, c]) => [name, c.output])),
    bindings: stages.bindings,
    placements: bound.placements,
    diagnostics: [
      ...findUnregisteredClusters(fleet),
      ...bound.diagnostics,
      // A ServiceImport's derived Service is made by the hub, not missing from the repo.
      ...followed.diagnostics.filter((d) => !(d.code === 'DependencyMissing' && isMade(d.message, made))),
      ...services.diagnostics,
      ...unmatchedDiagnostics(detected.unmatched, following),
      ...[...assembled.values()].flatMap((c) => c.diagnostics.map((d) => d.diagnostic)),
    ],
    memo: stages.memo,
    ...(stages.quotas.usage.length > 0 ? { quotas: stages.quotas.usage } : {}),
    stats: {
      templates: fleet.templates.length,
      claimed: bound.bindings.length,
      followers: followed.followers.length,
      skipped: detected.skipped.length,
      unmatched: detected.unmatched.filter((t) => !following.has(t.key)).length,
    },
  };
}

function isMade(message: string, made: ReadonlySet<string>): boolean {
  const end = message.indexOf(',');
  return end > 0 && made.has(message.slice(0, end + 1));
}

function unmatchedDiagnostics(unmatched: readonly Template[], following: ReadonlySet<string>): Diagnostic[] {
  return unmatched
    .filter((t) => t.ref.kind !== 'Namespace' && !following.has(t.key))
    .map((t) => ({
      severity: 'info' as const,
      code: 'NoPolicyMatch' as const,
      subject: refLabel(t.ref),
      message: `no propagation policy matches it (${t.source.file}); it is not rendered unless it follows another object`,
    }));
}
