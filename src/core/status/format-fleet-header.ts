// The first line of `gitfleet status` as text: the source commit the fleet is at, that is the
// one the hub rendered last (the bindings head's Gitfleet-Source-Commit), with its subject and
// branch, how long ago it was rendered and the bindings commit that says so:
//
//   fleet at main 1a2b3c4 bump nginx to 1.27 (rendered 5m ago; bindings 5446ea6)
//
// Whether each cluster runs it is the clusters' table: RENDERED, APPLIED and BEHIND.
import { parseTime } from '../model/rfc3339.js';
import type { FleetStatusData } from './fleet-status-data.js';
import { formatAge } from './format-fleet-summary.js';

/** Returns the line naming the source commit the fleet is at, and when it was rendered. */
export function formatFleetHeader(
  data: Pick<
    FleetStatusData,
    'bindingsHead' | 'bindingsTime' | 'sourceCommit' | 'sourceRef' | 'sourceSubject'
  >,
  now: Date,
): string {
  const at = data.bindingsTime === undefined ? undefined : parseTime(data.bindingsTime);
  const age =
    at === undefined
      ? ''
      : `rendered ${formatAge(Math.max(0, Math.floor((now.getTime() - at) / 1000)))} ago; `;
  const record = `(${age}bindings ${data.bindingsHead.slice(0, 7)})`;
  if (data.sourceCommit === undefined)
    return `fleet at no known source commit: the bindings head names none ${record}`;
  const branch = data.sourceRef === undefined ? '' : `${data.sourceRef.replace(/^refs\/heads\//, '')} `;
  const subject = data.sourceSubject ? ` ${data.sourceSubject}` : '';
  return `fleet at ${branch}${data.sourceCommit.slice(0, 7)}${subject} ${record}`;
}
