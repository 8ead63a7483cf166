import type { BranchChange } from './plan-cluster-update.js';
import {
  allowDeletionsTrailer,
  endpointsFromTrailer,
  restoredFromTrailer,
  sourceCommitTrailer,
  sourceRefTrailer,
} from './commit-trailers.js';
import { movedFromTrailer } from './render-move.js';

export interface RenderCommitInput {
  sourceCommit: string;
  sourceRef: string;
  /** The subject line of the source commit. */
  sourceSubject: string;
  changes: readonly BranchChange[];
  /** Lists longer than this are cut with a count, so huge renders keep readable messages. */
  maxListed?: number;
  /**
   * The cluster whose deletions the source commit allowed, when this commit deletes: the
   * Gitfleet-Allow-Deletions trailer is passed on, so the agent's own guard lets them through.
   */
  allowDeletionsOn?: string;
  /**
   * The branch was found at `found` (null: deleted), not at `lastWritten`, the hub's own last
   * commit there: someone else moved it, and this commit puts the render back.
   */
  restoredFrom?: { found: string | null; lastWritten: string };
  /**
   * The branch moved here from another repository (core/publish/render-move.ts): `from` names
   * it (locationName), `lastWritten` is the hub's last commit there, this commit's parent.
   */
  movedFrom?: { from: string; lastWritten: string };
  /**
   * The exporting clusters and Services (`<cluster> <namespace>/<service>`) whose endpoints the
   * changed EndpointSlices carry (endpointsFromOf): one Gitfleet-Endpoints-From trailer each.
   */
  endpointsFrom?: readonly string[];
  /**
   * The `Gitfleet-Eviction: ...` / `Gitfleet-Eviction-Done: ...` lines of the failover decisions
   * that take objects off this cluster (core/failover/eviction-allowance.ts), after the others.
   */
  evictions?: readonly string[];
  /** The `Gitfleet-Rollout: ...` / `Gitfleet-Rollback: ...` lines of the rollouts the cluster is in, last. */
  rollout?: readonly string[];
  /**
   * The `Gitfleet-Template-Source: …` lines of the template sources whose objects the commit
   * changes (core/sources/describe-provenance.ts templateSourceLines), after the others.
   */
  templateSources?: readonly string[];
}

/**
 * Returns the message of a render commit (docs/architecture.md#cluster-branches): `render <short
 * sha>: <subject>`, a body listing what was added, changed and removed
 * (`<ns>/<Kind>[.<group>]/<name>: changed`), and the provenance trailers.
 */
export function renderCommitMessage(input: RenderCommitInput): string {
  const max = input.maxListed ?? 200;
  const lines = input.changes.slice(0, max).map((c) => `${c.path.replace(/\.yaml$/, '')}: ${c.change}`);
  if (input.changes.length > max) lines.push(`… and ${input.changes.length - max} more`);
  const restored = input.restoredFrom;
  return [
    `render ${input.sourceCommit.slice(0, 7)}: ${input.sourceSubject}`,
    '',
    ...(input.movedFrom
      ? [
          `moved: the branch continues here from ${input.movedFrom.from}, where the hub's last commit was ${input.movedFrom.lastWritten}.`,
          '',
        ]
      : []),
    ...(restored
      ? [
          `restored: the branch was found at ${restored.found ?? 'no commit (deleted)'}, not at ${restored.lastWritten}, the hub's last write; another writer moved it, and this commit puts the render back. The changes below are from the hub's last write.`,
          '',
        ]
      : []),
    ...lines,
    '',
    `${sourceCommitTrailer}: ${input.sourceCommit}`,
    `${sourceRefTrailer}: ${input.sourceRef}`,
    ...(input.allowDeletionsOn ? [`${allowDeletionsTrailer}: ${input.allowDeletionsOn}`] : []),
    ...(restored?.found ? [`${restoredFromTrailer}: ${restored.found}`] : []),
    ...(input.movedFrom
      ? [`${movedFromTrailer}: ${input.movedFrom.from} ${input.movedFrom.lastWritten}`]
      : []),
    ...(input.endpointsFrom ?? []).map((from) => `${endpointsFromTrailer}: ${from}`),
    ...(input.evictions ?? []),
    ...(input.rollout ?? []),
    ...(input.templateSources ?? []),
    '',
  ].join('\n');
}
