// The templates page (the overview, as Argo CD lists applications): one line per template with
// its health and sync badges, where it is placed, and for anything not Healthy the reason, as the
// server computed them (src/loops/ui/template-list-view.ts). The header's search box filters it
// (search.js); the chips above filter by state. At most `pageSize` lines are drawn at first, so
// a fleet of 2,000 templates draws at once; the rest come on request.
import { badge, clusterHref, h, navRow, reasonTag, table, templateHref } from './dom.js';
import { matchesQuery, parseQuery } from './search.js';

const pageSize = 300;

/** The state filters, each with the test it applies. */
const chips = [
  ['all', 'All', () => true],
  [
    'problems',
    'Not Healthy',
    (t) => t.sync !== 'CheckedAtRender' && (t.health !== 'Healthy' || (t.why ?? 'Healthy') !== 'Healthy'),
  ],
  ['outofsync', 'Out of sync', (t) => t.sync === 'OutOfSync' || t.sync === 'Unknown'],
  ['Degraded', 'Degraded', (t) => t.health === 'Degraded'],
  ['Progressing', 'Progressing', (t) => t.health === 'Progressing'],
  ['Unknown', 'Unknown', (t) => t.health === 'Unknown'],
  ['NotPlaced', 'Not placed', (t) => t.health === 'NotPlaced'],
  ['evicting', 'Being evicted', (t) => t.evictions > 0],
];

/** Returns the templates page; `state` (chip, all) lives across live updates, `query` is the search box's. */
export function templatesPage(doc, overview, state, query) {
  const words = parseQuery(query);
  const found = doc.templates.filter((t) => matchesQuery(words, t.label, t.labels));
  const chip = chips.find(([id]) => id === state.chip) ?? chips[0];
  const shown = found.filter(chip[2]);
  const limit = state.all ? shown.length : Math.min(shown.length, pageSize);
  const clusters =
    words.length > 0 ? overview.clusters.filter((c) => matchesQuery(words, c.cluster, c.labels)) : [];
  return h(
    'section',
    // The query it was drawn for, so a reader (or a test) knows the search has been applied.
    { id: 'templates-page', 'data-query': query ?? '' },
    h(
      'h1',
      {},
      'Templates',
      h('span', { className: 'count', id: 'templates-count' }, countText(doc.templates, found, shown, query)),
    ),
    clusters.length > 0
      ? h(
          'p',
          { id: 'search-clusters' },
          'Clusters: ',
          clusters.map((c, i) => [i > 0 ? ', ' : '', h('a', { href: clusterHref(c.cluster) }, c.cluster)]),
        )
      : null,
    chipBar(found, state),
    shown.length === 0
      ? h(
          'p',
          { id: 'templates-none' },
          words.length > 0 ? `No template matches “${query}”.` : 'No template here.',
        )
      : table(
          'templates',
          ['Health', 'Sync', 'Template', 'Clusters', 'Replicas', 'Why'],
          shown.slice(0, limit).map(row),
        ),
    limit < shown.length
      ? h(
          'p',
          { className: 'more' },
          `${shown.length - limit} more. Narrow the search, or `,
          h('button', { id: 'templates-all', onclick: () => redraw(state, { all: true }) }, 'show all'),
        )
      : null,
  );
}

// The page is drawn again by the app (app.js listens), from the documents it has.
function redraw(state, change) {
  Object.assign(state, change);
  document.dispatchEvent(new CustomEvent('gitfleet:redraw'));
}

function countText(all, found, shown, query) {
  if (query) return `${shown.length} of ${found.length} matching “${query}” (${all.length} in all)`;
  return `${shown.length} of ${all.length}`;
}

function chipBar(found, state) {
  return h(
    'div',
    { className: 'chips', role: 'toolbar' },
    chips.map(([id, label, test]) => {
      const n = found.filter(test).length;
      if (n === 0 && id !== 'all' && state.chip !== id) return null;
      return h(
        'button',
        {
          className: `chip${(state.chip ?? 'all') === id ? ' on' : ''}`,
          'data-chip': id,
          'aria-pressed': String((state.chip ?? 'all') === id),
          onclick: () => redraw(state, { chip: id, all: false }),
        },
        `${label} `,
        h('b', {}, String(n)),
      );
    }),
  );
}

function row(t) {
  const syncTitle =
    t.sync === 'NotPlaced'
      ? 'placed on no cluster'
      : t.sync === 'CheckedAtRender'
        ? `kept for the check only: checked against the render of ${t.clusters} clusters, applied on none`
        : `${t.synced} of ${t.clusters} clusters applied what the hub rendered`;
  return navRow(
    templateHref(t.key),
    {
      'data-template': t.label,
      'data-why': t.why,
      className: t.health === 'Healthy' || t.health === 'CheckedAtRender' ? '' : 'problem',
    },
    h('td', {}, badge(t.health)),
    h('td', {}, badge(t.sync, syncTitle)),
    h(
      'td',
      { className: 'name' },
      h('a', { href: templateHref(t.key) }, t.label),
      t.policy ? h('div', { className: 'meta' }, t.policy) : null,
    ),
    h('td', { className: 'num' }, t.sync === 'NotPlaced' ? '0' : `${t.synced}/${t.clusters}`),
    h('td', { className: 'num' }, t.replicas > 0 ? String(t.replicas) : ''),
    h(
      'td',
      { className: 'why', title: t.reason ?? '' },
      h(
        'div',
        { className: 'clamp' },
        t.why && t.why !== 'Healthy' ? reasonTag(t.why) : null,
        t.reason ?? '',
      ),
      t.evictions > 0 && t.why !== 'Evicting'
        ? h(
            'div',
            { className: 'meta' },
            `being evicted from ${t.evictions} cluster${t.evictions > 1 ? 's' : ''}`,
          )
        : null,
    ),
  );
}
