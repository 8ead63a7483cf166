// The page's one DOM helper: elements are built from data with textContent only, never from
// HTML strings, so nothing read from the repository is ever parsed as markup.

/** Returns a new element with attributes (on* are listeners) and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'className') el.className = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Returns the JSON of a dashboard API document; throws with the server's message on an error. */
export async function getJson(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  if (res.status === 404) return undefined;
  const body = await res.json();
  if (!res.ok) throw new Error(body.error ?? `${path}: HTTP ${res.status}`);
  return body;
}

/** Returns the first 7 characters of a commit id, or a dash. */
export function short(oid) {
  return oid ? oid.slice(0, 7) : '–';
}

/** Returns "3 min ago" (or "in 8 min") for an RFC 3339 time, relative to the browser's clock, or a dash. */
export function ago(iso, now = Date.now()) {
  const at = Date.parse(iso ?? '');
  if (Number.isNaN(at)) return '–';
  const future = at - now > 45_000;
  const s = Math.round(Math.abs(now - at) / 1000);
  const span =
    s < 45
      ? undefined
      : s < 90
        ? '1 min'
        : s < 3600
          ? `${Math.round(s / 60)} min`
          : s < 5400
            ? '1 h'
            : s < 86400
              ? `${Math.round(s / 3600)} h`
              : s < 2 * 86400
                ? undefined
                : `${Math.round(s / 86400)} days`;
  if (span === undefined) return s < 45 ? 'just now' : future ? 'tomorrow' : 'yesterday';
  return future ? `in ${span}` : `${span} ago`;
}

/** Returns a <time> element: the relative time, on one line, with the RFC 3339 time on hover. */
export function when(iso) {
  if (!iso) return h('span', { className: 'muted' }, '–');
  const title = iso.replace(/\.\d+Z$/, 'Z');
  return h('time', { datetime: iso, title, className: 'when', 'data-rel': '' }, ago(iso));
}

/** Rewrites every relative time on the page (they age between live updates). */
export function refreshTimes(root = document) {
  for (const el of root.querySelectorAll('time[data-rel]')) el.textContent = ago(el.getAttribute('datetime'));
}

/** Returns a coloured badge: a health (Healthy, Progressing, Degraded, Unknown, NotPlaced) or a sync state. */
export function badge(value, title) {
  const text =
    {
      NotPlaced: 'not placed',
      CheckedAtRender: 'checked at render',
      OutOfSync: 'out of sync',
      NotReported: 'no report',
      NotApplied: 'not applied',
      NotReady: 'not Ready',
      WaitingApproval: 'waiting for approval',
      RolledBack: 'rolled back',
    }[value] ?? value;
  return h('span', { className: `badge b-${value}`, title: title ?? undefined, 'data-badge': value }, text);
}

/** Returns the template page's hash of a refKey. */
export function templateHref(key) {
  return `#/template/${encodeURIComponent(key)}`;
}

/** Returns the cluster page's hash of a cluster name. */
export function clusterHref(name) {
  return `#/cluster/${encodeURIComponent(name)}`;
}

/** Returns a table with a head row and body rows (each a <tr>), with an id. */
export function table(id, heads, rows, className) {
  return h(
    'table',
    { id, className },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        heads.map((t) => h('th', {}, t)),
      ),
    ),
    h('tbody', {}, rows),
  );
}

/** Returns a body row the keyboard can select (j/k) and open (Enter): it goes to `href`. */
export function navRow(href, attrs, ...cells) {
  return h(
    'tr',
    { ...attrs, 'data-href': href, tabindex: '-1', className: `nav ${attrs.className ?? ''}` },
    ...cells,
  );
}

// The explanation's reasons (src/core/status/explanation.ts) by how a person reads them.
const reasonTone = {
  bad: [
    'NoClusterFit',
    'ApplyFailed',
    'Degraded',
    'RolloutHalted',
    'RolledBack',
    'ClusterNotReady',
    'ScheduleFailed',
  ],
  wait: [
    'NotReported',
    'HealthUnknown',
    'NotYetApplied',
    'HeldByRollout',
    'Evicting',
    'Progressing',
    'PendingRemoval',
  ],
  good: ['Healthy'],
};

/** Returns the tag of an explanation's reason (ApplyFailed, HeldByRollout…), coloured by how bad it is. */
export function reasonTag(reason) {
  const tone = Object.keys(reasonTone).find((t) => reasonTone[t].includes(reason)) ?? 'refused';
  return h('span', { className: `reason r-${tone}`, 'data-reason': reason }, reason);
}

/** The lists shown whole after their "show all" was pressed, by list id (kept across redraws). */
const shownWhole = new Set();

/**
 * Returns at most `limit` of a long list's rows, and the line offering the rest ("show all"),
 * so a page of a big fleet draws at once; `id` names the list across redraws.
 */
export function capped(id, rows, limit = 300) {
  if (rows.length <= limit || shownWhole.has(id)) return { rows, more: null };
  const more = h(
    'p',
    { className: 'more' },
    `${rows.length - limit} more. `,
    h(
      'button',
      {
        id: `${id}-all`,
        onclick: () => {
          shownWhole.add(id);
          document.dispatchEvent(new CustomEvent('gitfleet:redraw'));
        },
      },
      'show all',
    ),
  );
  return { rows: rows.slice(0, limit), more };
}
