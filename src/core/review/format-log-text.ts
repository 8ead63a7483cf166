import type { LogEntry } from './log-entry.js';

/**
 * Returns `gitfleet log` entries as text, two lines each: when, cluster, rendering commit and
 * what it did (the object's change, or the commit's subject), then the source commit with its
 * author and subject, and for a commit that changed imported endpoints a third line naming
 * the exporting clusters and Services; a commit a failover or rollout decision made is followed
 * by one `why:` line per decision (the eviction, the taint, the monitor's verdict, the rollout step).
 */
export function formatLogText(entries: readonly LogEntry[], options: { followsObject: boolean }): string {
  return entries
    .map((e) => {
      const from = e.endpointsFrom ? `\n    endpoints from ${e.endpointsFrom.join(', ')}` : '';
      const why = (e.decisions ?? []).map((line) => `\n    why: ${line}`).join('');
      return `${entryLine(e, options.followsObject)}\n    ${sourceLine(e)}${from}${why}`;
    })
    .join('\n');
}

function entryLine(e: LogEntry, followsObject: boolean): string {
  const count = e.changes.length;
  const what = followsObject
    ? e.changes.map((c) => `${c.change.padEnd(7)} ${c.path}`).join(', ')
    : `${e.subject}${count > 0 ? ` (${count} object${count === 1 ? '' : 's'})` : ''}`;
  return `${utcTime(e.time)}  ${e.cluster}  ${e.commit.slice(0, 7)}  ${what}`;
}

function sourceLine(e: LogEntry): string {
  const s = e.source;
  if (s === null) return 'source: none recorded';
  const head = `source ${s.commit.slice(0, 7)}${s.ref ? ` (${s.ref})` : ''}`;
  if (s.missing) return `${head}: not in this repository (history rewritten, or not fetched)`;
  const author = s.author ? ` ${s.author.name} <${s.author.email}> ${utcTime(s.author.time)}` : '';
  return `${head}${author}: ${s.subject ?? ''}`;
}

/** Returns seconds since the epoch as `YYYY-MM-DD hh:mm:ssZ` (UTC, proleptic Gregorian calendar). */
export function utcTime(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const rest = seconds - days * 86400;
  // Days to civil date: H. Hinnant's algorithm, eras of 400 years starting on March 1st.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const time = `${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}`;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${time}Z`;
}
