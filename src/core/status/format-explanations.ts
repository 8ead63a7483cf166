// The "Why" section of `gitfleet status --template PATTERN`: per template it matches, its reason
// and, cluster by cluster, placed or not and why (explain-template.ts), in kubectl's columns.
import type { ClusterExplanation } from './explanation.js';
import type { TemplateSummary } from './fleet-summary.js';
import { columns } from './text-columns.js';

const headers = ['CLUSTER', 'PLACED', 'REASON', 'MESSAGE'];

/** How many templates the section explains cluster by cluster before it asks for a narrower pattern. */
export const explainedTemplatesShown = 20;

/** Returns the section, or '' when no summary carries an explanation. */
export function formatExplanations(templates: readonly TemplateSummary[]): string {
  const explained = templates.filter((t) => t.explanation !== undefined);
  if (explained.length === 0) return '';
  const blocks = explained.slice(0, explainedTemplatesShown).map((t) => {
    const head = `${t.template}  ${t.reason ?? t.health}${t.message ? `  ${oneLine(t.message)}` : ''}`;
    const rows = (t.explanation ?? []).map((c) => [c.cluster, c.placed ? 'yes' : 'no', c.reason, words(c)]);
    if (rows.length === 0) return head;
    return [
      head,
      ...columns([headers, ...rows])
        .split('\n')
        .map((l) => `  ${l}`),
    ].join('\n');
  });
  const more = explained.length - explainedTemplatesShown;
  if (more > 0) blocks.push(`… and ${more} more templates: name fewer with --template to see their clusters`);
  return `Why\n${blocks.join('\n\n')}`;
}

// The message without the cluster's name in front: the row names it.
function words(c: ClusterExplanation): string {
  const text = c.message.startsWith(`${c.cluster}: `) ? c.message.slice(c.cluster.length + 2) : c.message;
  return oneLine(text);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
