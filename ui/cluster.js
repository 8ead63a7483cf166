// The cluster page: what its agent reports (Ready, conditions, nodes, capacity, APIs), its
// registration in the fleet repository, its taints with the commit that added each, what is
// placed there and how it is doing, what is being evicted from it and where it stands in each
// rollout (src/loops/ui/cluster-view.ts).
import { badge, capped, h, navRow, reasonTag, short, table, templateHref, when } from './dom.js';

/** Returns the cluster page of a cluster document. */
export function clusterPage(doc) {
  const s = doc.summary;
  return h(
    'section',
    { id: 'cluster-page', 'data-cluster': doc.cluster },
    h(
      'h1',
      {},
      doc.cluster,
      ' ',
      readyBadge(s),
      s.kubernetesVersion ? h('span', { className: 'count' }, s.kubernetesVersion) : null,
    ),
    doc.unreadable
      ? h(
          'p',
          { className: 'callout error', id: 'cluster-unreadable' },
          `Its status branch does not read: ${doc.unreadable}`,
        )
      : null,
    s.ready !== 'True' && s.readyMessage && !doc.unreadable
      ? h('p', { className: 'callout', id: 'cluster-why' }, `Not Ready: ${s.readyMessage}`)
      : null,
    h(
      'div',
      { className: 'columns' },
      h('div', {}, h('h2', {}, 'Cluster'), facts(doc)),
      h('div', {}, h('h2', {}, 'Capacity'), capacity(doc.capacity, s.nodes)),
    ),
    h('h2', {}, 'Conditions'),
    doc.conditions.length === 0
      ? h('p', { className: 'muted' }, 'Its agent reported no condition.')
      : table(
          'cluster-conditions',
          ['Type', 'Status', 'Reason', 'Message', 'Reported by'],
          doc.conditions.map((c) =>
            h(
              'tr',
              { 'data-condition': c.type },
              h('td', {}, c.type),
              h('td', { className: `st-${c.status}` }, c.status),
              h('td', {}, c.reason ?? ''),
              h('td', {}, c.message ?? ''),
              h('td', { className: 'muted' }, c.from === 'agent' ? 'the agent' : 'the cluster'),
            ),
          ),
        ),
    h('h2', {}, 'Taints'),
    taints(doc.taints),
    doc.evictions.length > 0
      ? [h('h2', {}, `Being evicted from ${doc.cluster}`), evictions(doc.evictions)]
      : null,
    doc.rollouts.length > 0 ? [h('h2', {}, 'Rollouts'), rollouts(doc.rollouts)] : null,
    h('h2', {}, `Templates here (${doc.objects.filter((o) => o.placed).length} placed)`),
    objects(doc.objects),
    doc.refused?.length > 0 ? [h('h2', {}, `Kept off ${doc.cluster}`), refused(doc.refused)] : null,
    doc.apis.length > 0
      ? h(
          'details',
          { id: 'cluster-apis' },
          h('summary', {}, `${doc.apis.length} API versions served`),
          h('p', { className: 'mono' }, doc.apis.join('  ')),
        )
      : null,
  );
}

function readyBadge(s) {
  const value = s.ready === 'True' ? 'Ready' : s.ready === 'False' ? 'NotReady' : s.ready;
  return badge(value, s.readyMessage);
}

function facts(doc) {
  const s = doc.summary;
  const r = doc.registration;
  const rows = [
    ['rendered', h('span', { className: 'mono' }, short(s.renderedCommit))],
    ['applied', h('span', { className: 'mono' }, short(s.appliedCommit)), ' ', behind(s.behind)],
    ['reported', when(s.reportedAt)],
    ['heartbeat', when(s.heartbeatAt)],
    doc.judged ? ['monitor', `judged ${doc.judged} by the hub's cluster monitor`] : null,
    r ? ['where', [r.provider, r.region, r.zones.join(', ')].filter((x) => x).join(' · ')] : null,
    r
      ? ['labels', Object.entries(r.labels).map(([k, v]) => h('span', { className: 'label' }, `${k}=${v}`))]
      : null,
    r ? ['registered in', h('span', { className: 'mono' }, r.file), ` (${r.syncMode})`] : null,
  ].filter((x) => x);
  return h(
    'dl',
    { className: 'facts', id: 'cluster-facts' },
    rows.map(([k, ...v]) => [h('dt', {}, k), h('dd', {}, v)]),
  );
}

function behind(b) {
  if (!b) return '';
  if (b.type === 'Behind') return b.commits === 0 ? '(up to date)' : `(${b.commits} behind)`;
  if (b.type === 'AtLeast') return `(≥${b.commits} behind)`;
  return b.type === 'NotOnBranch' ? '(not on its branch)' : '(never applied)';
}

function capacity(c, nodes) {
  const names = [
    ...new Set([
      ...Object.keys(c.allocatable ?? {}),
      ...Object.keys(c.allocated ?? {}),
      ...Object.keys(c.allocating ?? {}),
    ]),
  ];
  if (names.length === 0 && !nodes) return h('p', { className: 'muted' }, 'Its agent reported no capacity.');
  return h(
    'div',
    {},
    nodes ? h('p', { id: 'cluster-nodes' }, `${nodes.ready} of ${nodes.total} nodes ready`) : null,
    names.length > 0
      ? table(
          'cluster-capacity',
          ['Resource', 'Allocatable', 'Allocated', 'Allocating'],
          names
            .sort()
            .map((n) =>
              h(
                'tr',
                { 'data-resource': n },
                h('td', {}, n),
                h('td', { className: 'num' }, c.allocatable?.[n] ?? '–'),
                h('td', { className: 'num' }, c.allocated?.[n] ?? '–'),
                h('td', { className: 'num' }, c.allocating?.[n] ?? '–'),
              ),
            ),
        )
      : null,
  );
}

function taints(list) {
  if (list.length === 0)
    return h(
      'p',
      { className: 'muted', id: 'cluster-no-taints' },
      'No taint: every policy may place templates here.',
    );
  return table(
    'cluster-taints',
    ['Taint', 'Added by', 'When', 'Why'],
    list.map((t) =>
      h(
        'tr',
        { 'data-taint': `${t.key}:${t.effect}` },
        h('td', { className: 'mono nowrap' }, `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
        h(
          'td',
          { className: 'nowrap' },
          t.origin === 'spec'
            ? t.addedBy?.author
              ? `${t.addedBy.author} (fleet repository)`
              : 'the fleet repository'
            : 'the hub',
        ),
        h('td', {}, when(t.addedBy?.time ?? t.timeAdded)),
        h(
          'td',
          {},
          t.addedBy
            ? [
                h(
                  'a',
                  {
                    className: 'mono',
                    href: t.origin === 'spec' ? `#/commit/${t.addedBy.commit}` : undefined,
                  },
                  short(t.addedBy.commit),
                ),
                ' ',
                t.addedBy.message,
              ]
            : t.origin === 'hub'
              ? `kept by the hub since ${t.timeAdded} (the commit that added it is older than the history read)`
              : 'written in its Cluster registration',
        ),
      ),
    ),
  );
}

function evictions(list) {
  return table(
    'cluster-evictions',
    ['Template', 'Reason', 'Producer', 'Purge', 'Since', 'Until', 'Message'],
    list.map((e) =>
      navRow(
        templateHref(e.key ?? e.template),
        { 'data-template': e.template },
        h('td', {}, h('a', { href: templateHref(e.key ?? e.template) }, e.template)),
        h('td', {}, e.reason ?? '–'),
        h('td', {}, e.producer ?? '–'),
        h('td', {}, e.purgeMode ?? '–'),
        h('td', {}, when(e.since)),
        h('td', {}, e.until ? when(e.until) : 'a person decides'),
        h('td', {}, e.message ?? ''),
      ),
    ),
  );
}

function rollouts(list) {
  return table(
    'cluster-rollouts',
    ['Strategy', 'Phase', 'Its step', 'Here', 'Why'],
    list.map((r) =>
      navRow(
        '#/rollouts',
        { 'data-strategy': r.strategy },
        h('td', {}, r.strategy),
        h('td', {}, badge(r.phase), ` step ${r.step}/${r.steps}`),
        h('td', {}, `${r.cluster.step}/${r.steps}`),
        h(
          'td',
          {},
          r.cluster.state,
          r.cluster.commit ? h('span', { className: 'mono' }, ` at ${short(r.cluster.commit)}`) : '',
        ),
        h('td', {}, r.cluster.message ?? ''),
      ),
    ),
  );
}

function objects(rows) {
  if (rows.length === 0) return h('p', { className: 'muted' }, 'Nothing is placed here.');
  const sorted = [...rows].sort((a, b) => rank(a) - rank(b) || (a.template < b.template ? -1 : 1));
  const { rows: shown, more } = capped('cluster-objects', sorted);
  return [
    table(
      'cluster-objects',
      ['Health', 'Template', 'Placed', 'Replicas', 'Applied', 'Why'],
      shown.map((r) =>
        navRow(
          `#/template/${encodeURIComponent(r.key ?? '')}`,
          { 'data-template': r.template, 'data-reason': r.explained?.reason },
          h('td', {}, r.health ? badge(r.health) : ''),
          h('td', {}, h('a', { href: `#/template/${encodeURIComponent(r.key ?? '')}` }, r.template)),
          h('td', {}, r.placed ? 'yes' : 'no'),
          h('td', { className: 'num' }, r.replicas ?? ''),
          h('td', { className: 'mono' }, r.applied ? short(r.appliedCommit) : 'no'),
          h(
            'td',
            {},
            r.explained && r.explained.reason !== 'Healthy'
              ? [reasonTag(r.explained.reason), r.explained.message]
              : r.explained
                ? ''
                : (r.message ?? ''),
          ),
        ),
      ),
    ),
    more,
  ];
}

// The templates the scheduler kept off this cluster for a reason a person may act on.
function refused(list) {
  const { rows: shown, more } = capped('cluster-refused', list);
  return [
    table(
      'cluster-refused',
      ['Template', 'Why'],
      shown.map((r) =>
        navRow(
          templateHref(r.key),
          { 'data-template': r.template, 'data-reason': r.explained.reason },
          h('td', {}, h('a', { href: templateHref(r.key) }, r.template)),
          h('td', {}, reasonTag(r.explained.reason), r.explained.message),
        ),
      ),
    ),
    more,
  ];
}

// Problems first: the rows a person opens this page for.
function rank(r) {
  if (!r.applied) return 0;
  return { Degraded: 1, Unknown: 2, Progressing: 3, Healthy: 4 }[r.health] ?? 5;
}
