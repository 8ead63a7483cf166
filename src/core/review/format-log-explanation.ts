// What `gitfleet log <object>` prints above the history: why the object is where it is now, per
// cluster, as `gitfleet status --template` and the dashboard say it (core/status/explain-template.ts):
//
//   now: Deployment/shop/web  Progressing  member2: 1 of 2 replicas ready
//     CLUSTER  PLACED  REASON       MESSAGE
//     member1  yes     Healthy      applied at 1a2b3c4, Healthy
//     member2  yes     Progressing  1 of 2 replicas ready
//     (2 more clusters the placement did not choose)
//
// A template a source rendered says where it came from on the line after the first
// (`from: HelmSource/web (sources/web.yaml): chart web 1.4.2 …, helm v4.3.2`).
// Every cluster it is placed on, and those it is not placed on for a reason worth reading (a
// taint, a missing API, an eviction); the clusters the placement simply did not choose are counted.
import type { ClusterExplanation, TemplateExplanation } from '../status/explanation.js';
import { isNotable } from '../status/explain-template.js';
import { columns } from '../status/text-columns.js';

/** Returns the explanation block: the template's reason and message, then a row per cluster worth showing. */
export function formatLogExplanation(explained: TemplateExplanation): string {
  const head = `now: ${explained.template}  ${explained.reason}${explained.message ? `  ${oneLine(explained.message)}` : ''}`;
  const shown = explained.clusters.filter((c) => c.placed || isNotable(c));
  const hidden = explained.clusters.length - shown.length;
  const rows = shown.map((c) => [c.cluster, c.placed ? 'yes' : 'no', c.reason, words(c)]);
  const table =
    rows.length === 0 ? [] : columns([['CLUSTER', 'PLACED', 'REASON', 'MESSAGE'], ...rows]).split('\n');
  const more =
    hidden > 0 ? [`(${hidden} more cluster${hidden === 1 ? '' : 's'} the placement did not choose)`] : [];
  const from = explained.source !== undefined ? [`from: ${explained.source}`] : [];
  return [head, ...[...from, ...table, ...more].map((l) => `  ${l}`)].join('\n');
}

// The message without the cluster's name in front: the row names it.
function words(c: ClusterExplanation): string {
  return oneLine(c.message.startsWith(`${c.cluster}: `) ? c.message.slice(c.cluster.length + 2) : c.message);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
