// The lines of a status commit's body that tell drift (docs/notifications.md#drift): what the
// agent put back since its last status commit, and the objects whose correction it paused. They
// name objects and field paths, never a value, so a Secret changed by hand is told without its
// contents. The agent writes them (status-commit-message.ts); the notifier reads them back
// (core/notify/status-commit-events.ts).
//
//   drift reverted: Deployment/shop/web (fields: spec.replicas)
//   drift reverted: ConfigMap/shop/cm (3 times; fields: data.a, data.b)
//   drift reverted: Service/shop/web (deleted by hand, recreated)
//   drift reverted: 950 more objects in shop (1200 corrections)  past the listed ones, per namespace
//   drift reverted: 12 more objects (12 corrections)             cluster-scoped ones, or past 50 namespaces
//   drift correction paused: Deployment/shop/api                  while its fight backs off

/** The corrections of one object since the last status commit, summed. */
export interface DriftNote {
  /** `Kind/namespace/name` or `Kind/name` (refLabel). */
  object: string;
  count: number;
  /** Field paths put back (driftedFields), sorted, no value. */
  fields: readonly string[];
  /** At least one correction re-created the object (it was deleted by hand). */
  recreated: boolean;
}

/** What a drift line of a status commit says. */
export type DriftLine =
  | { type: 'reverted'; object: string; count: number; detail: string }
  | { type: 'more'; objects: number; count: number; namespace?: string }
  | { type: 'paused'; object: string };

const revertedPrefix = 'drift reverted: ';
const pausedPrefix = 'drift correction paused: ';

/** Returns the body lines of the notes (at most `max` objects listed, then one line counting the rest) and of the paused objects. */
export function driftReportLines(
  notes: readonly DriftNote[],
  paused: readonly string[] = [],
  max = 50,
): string[] {
  const sorted = [...notes].sort((a, b) => (a.object < b.object ? -1 : a.object > b.object ? 1 : 0));
  const lines = sorted.slice(0, max).map((n) => `${revertedPrefix}${n.object} (${detailOf(n)})`);
  lines.push(...moreLines(sorted.slice(max), max));
  for (const object of [...paused].sort()) lines.push(`${pausedPrefix}${object}`);
  return lines;
}

// The objects past the listed ones, counted per namespace (so a route filtering on namespaces
// still gets them), at most `max` namespaces; the rest and the cluster-scoped ones in one line.
function moreLines(rest: readonly DriftNote[], max: number): string[] {
  const groups = new Map<string, { objects: number; count: number }>();
  for (const note of rest) {
    const parts = note.object.split('/');
    const space = parts.length === 3 ? parts[1]! : '';
    const group = groups.get(space) ?? { objects: 0, count: 0 };
    groups.set(space, { objects: group.objects + 1, count: group.count + note.count });
  }
  const spaces = [...groups.keys()].filter((s) => s !== '').sort();
  const lines = spaces
    .slice(0, max)
    .map(
      (s) =>
        `${revertedPrefix}${groups.get(s)!.objects} more objects in ${s} (${groups.get(s)!.count} corrections)`,
    );
  const others = ['', ...spaces.slice(max)].map((s) => groups.get(s) ?? { objects: 0, count: 0 });
  const objects = others.reduce((sum, g) => sum + g.objects, 0);
  if (objects > 0)
    lines.push(
      `${revertedPrefix}${objects} more objects (${others.reduce((sum, g) => sum + g.count, 0)} corrections)`,
    );
  return lines;
}

function detailOf(note: DriftNote): string {
  const parts = note.count > 1 ? [`${note.count} times`] : [];
  if (note.recreated) parts.push('deleted by hand, recreated');
  if (note.fields.length > 0) parts.push(`fields: ${note.fields.join(', ')}`);
  if (parts.length === 0) parts.push('put back');
  return parts.join('; ');
}

/** Returns what a body line says of drift, or undefined for any other line. */
export function parseDriftLine(line: string): DriftLine | undefined {
  if (line.startsWith(pausedPrefix)) {
    const object = line.slice(pausedPrefix.length);
    return /^\S+$/.test(object) ? { type: 'paused', object } : undefined;
  }
  if (!line.startsWith(revertedPrefix)) return undefined;
  const rest = line.slice(revertedPrefix.length);
  const more = /^(\d+) more objects(?: in (\S+))? \((\d+) corrections\)$/.exec(rest);
  if (more) {
    const counted = { type: 'more' as const, objects: Number(more[1]), count: Number(more[3]) };
    return more[2] === undefined ? counted : { ...counted, namespace: more[2] };
  }
  const m = /^(\S+) \((.*)\)$/.exec(rest);
  if (!m) return undefined;
  const count = /^(\d+) times(; |$)/.exec(m[2]!);
  return { type: 'reverted', object: m[1]!, count: count ? Number(count[1]) : 1, detail: m[2]! };
}

/** Returns the notes with one more correction of `object` added (a new note, the old ones unchanged). */
export function addDriftNote(
  notes: ReadonlyMap<string, DriftNote>,
  key: string,
  correction: { object: string; fields: readonly string[]; recreated: boolean },
): DriftNote {
  const before = notes.get(key);
  const fields = [...new Set([...(before?.fields ?? []), ...correction.fields])].sort();
  return {
    object: correction.object,
    count: (before?.count ?? 0) + 1,
    fields: fields.length > 10 ? [...fields.filter((f) => f !== '…').slice(0, 10), '…'] : fields,
    recreated: (before?.recreated ?? false) || correction.recreated,
  };
}
