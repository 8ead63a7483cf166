// The clusters page: one row per cluster, the summary `gitfleet status` prints (Ready, version,
// nodes, rendered and applied commit, object health counts, report age) plus the reported
// capacity; the search box filters it by name and label; a row opens the cluster's page.
import { clusterHref, h, navRow, short, when } from './dom.js';
import { matchesQuery, parseQuery } from './search.js';

const healthCols = [
  ['healthy', 'Healthy'],
  ['progressing', 'Progressing'],
  ['degraded', 'Degraded'],
  ['unknown', 'Unknown'],
  ['failed', 'Not applied'],
];

/** Returns the clusters page of an overview document, filtered by the search box's query. */
export function clustersPage(overview, query) {
  const words = parseQuery(query);
  const shown = overview.clusters.filter((c) => matchesQuery(words, c.cluster, c.labels));
  const rows = shown.map((c) => [
    navRow(
      clusterHref(c.cluster),
      { 'data-cluster': c.cluster, className: c.ready === 'Unreadable' ? 'unreadable' : '' },
      h('td', {}, h('a', { href: clusterHref(c.cluster) }, c.cluster)),
      c.ready === 'Unreadable'
        ? h(
            'td',
            { colspan: 8 + healthCols.length, className: 'error' },
            `unreadable: its status branch does not parse (${c.readyMessage ?? ''})`,
          )
        : [
            h('td', { className: `ready-${c.ready}`, title: c.readyMessage ?? '' }, readyText(c.ready)),
            h('td', {}, c.kubernetesVersion ?? '–'),
            h('td', {}, c.nodes ? `${c.nodes.ready}/${c.nodes.total}` : '–'),
            h('td', {}, capacity(c.allocatable)),
            h('td', { className: 'mono' }, short(c.renderedCommit)),
            h('td', { className: 'mono' }, short(c.appliedCommit)),
            h('td', { className: behindClass(c.behind) }, behindText(c.behind)),
            healthCols.map(([k, label]) =>
              h('td', { className: `num h-${label}`, 'data-health': label }, String(c.objects[k])),
            ),
            h('td', {}, when(c.reportedAt)),
          ],
    ),
    // Why a cluster is not Ready, on a line of its own under it.
    c.ready !== 'True' && c.ready !== 'Unreadable' && c.readyMessage
      ? h(
          'tr',
          { className: 'why', 'data-why': c.cluster },
          h('td', {}),
          h('td', { colspan: 8 + healthCols.length }, c.readyMessage),
        )
      : null,
  ]);
  const heads = ['Cluster', 'Ready', 'Version', 'Nodes', 'Allocatable', 'Rendered', 'Applied', 'Behind'];
  return h(
    'section',
    {},
    h(
      'h1',
      {},
      'Clusters',
      h(
        'span',
        { className: 'count' },
        query ? `${shown.length} of ${overview.clusters.length} matching “${query}”` : String(shown.length),
      ),
    ),
    h(
      'p',
      { className: 'meta' },
      'bindings ',
      h('span', { className: 'mono' }, short(overview.bindingsHead)),
      overview.bindingsTime ? [' (', when(overview.bindingsTime), ')'] : '',
      ' rendered from source ',
      h(
        'a',
        { className: 'mono', href: `#/commit/${overview.sourceCommit ?? 'HEAD'}` },
        short(overview.sourceCommit),
      ),
    ),
    h(
      'table',
      { id: 'clusters', className: 'compact', 'data-query': query ?? '' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [...heads, ...healthCols.map(([, l]) => l), 'Reported'].map((t) => h('th', {}, t)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

function readyText(ready) {
  return ready === 'NotReported' ? 'no report' : ready;
}

function behindText(behind) {
  if (!behind) return '–';
  switch (behind.type) {
    case 'Behind':
      return behind.commits === 0 ? 'up to date' : `${behind.commits} behind`;
    case 'AtLeast':
      return `≥${behind.commits} behind`;
    case 'NotOnBranch':
      return 'not on branch';
    default:
      return 'never applied';
  }
}

function behindClass(behind) {
  return behind && !(behind.type === 'Behind' && behind.commits === 0) ? 'behind' : '';
}

function capacity(allocatable) {
  if (!allocatable) return '–';
  return ['cpu', 'memory', 'pods']
    .filter((k) => allocatable[k] !== undefined)
    .map((k) => `${k} ${allocatable[k]}`)
    .join(', ');
}
