// What a cluster-branch commit says about itself (commit-message.ts writes it):
//
//   render <sha7>: <source subject>          or  tombstone: <why>
//
//   <ns>/<Kind>[.<group>]/<name>: added|changed|removed
//   …
//
//   Gitfleet-Source-Commit: <sha>
//   Gitfleet-Source-Ref: <ref>
//   Gitfleet-Endpoints-From: <cluster> <namespace>/<service>   (any number)
import {
  endpointsFromTrailer,
  parseTrailers,
  sourceCommitTrailer,
  sourceRefTrailer,
} from '../publish/commit-trailers.js';

/** A cluster-branch commit message, read. */
export interface RenderCommitInfo {
  type: 'render' | 'tombstone' | 'other';
  subject: string;
  sourceCommit?: string;
  sourceRef?: string;
  /** The body's change list: paths (with `.yaml`) and what happened to them. */
  changes: { path: string; change: 'added' | 'changed' | 'removed' }[];
  /** The exporting clusters and Services of the imported endpoints it changed, when any. */
  endpointsFrom?: string[];
}

/** Returns the kind of commit, its subject, the source commit and ref it names, and its listed changes. */
export function parseRenderCommit(message: string): RenderCommitInfo {
  const subject = message.split('\n', 1)[0]!.trim();
  const type = subject.startsWith('render ')
    ? 'render'
    : subject.startsWith('tombstone:')
      ? 'tombstone'
      : 'other';
  const trailers = parseTrailers(message);
  const sourceCommit = trailers.get(sourceCommitTrailer)?.[0];
  const sourceRef = trailers.get(sourceRefTrailer)?.[0];
  const endpointsFrom = trailers.get(endpointsFromTrailer);
  const changes: RenderCommitInfo['changes'] = [];
  for (const line of message.split('\n').slice(1)) {
    const m = /^(\S+): (added|changed|removed)$/.exec(line.trim());
    if (m) changes.push({ path: `${m[1]!}.yaml`, change: m[2] as 'added' | 'changed' | 'removed' });
  }
  return {
    type,
    subject,
    ...(sourceCommit ? { sourceCommit } : {}),
    ...(sourceRef ? { sourceRef } : {}),
    changes,
    ...(endpointsFrom ? { endpointsFrom } : {}),
  };
}
