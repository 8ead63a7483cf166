// The clusters page: one row per cluster, as its agent reports it and as the status rows count it.
import { h, short } from './dom.js';

const healthCols = ['Healthy', 'Progressing', 'Degraded', 'Unknown', 'failed'];

/** Returns the clusters page of an overview document. */
export function clustersPage(overview) {
  if (overview.state === 'noHub')
    return h('section', {}, h('h1', {}, 'Clusters'), h('p', {}, 'No hub branches yet: see above.'));
  const rows = overview.clusters.map((c) =>
    h(
      'tr',
      { 'data-cluster': c.name, className: c.readable ? '' : 'unreadable' },
      h('td', {}, c.name),
      c.readable
        ? [
            h('td', { className: `ready-${c.ready}` }, c.reported ? c.ready : 'no report'),
            h('td', {}, c.version ?? '–'),
            h('td', {}, c.nodes ? `${c.nodes.ready}/${c.nodes.total}` : '–'),
            h('td', {}, capacity(c.allocatable)),
            h('td', { className: 'mono' }, short(c.renderedCommit)),
            h(
              'td',
              { className: `mono${c.behind ? ' behind' : ''}` },
              short(c.appliedCommit),
              c.behind ? ' (behind)' : '',
            ),
            healthCols.map((k) =>
              h('td', { className: `num h-${k}`, 'data-health': k }, String(c.counts[k])),
            ),
          ]
        : h(
            'td',
            { colspan: 6 + healthCols.length, className: 'error' },
            'unreadable: its status branch does not parse',
          ),
    ),
  );
  return h(
    'section',
    {},
    h('h1', {}, 'Clusters'),
    h(
      'p',
      { className: 'meta' },
      'bindings ',
      h('span', { className: 'mono' }, short(overview.bindingsHead)),
      ' rendered from source ',
      h(
        'a',
        { className: 'mono', href: `#/commit/${overview.sourceCommit ?? 'HEAD'}` },
        short(overview.sourceCommit),
      ),
    ),
    h(
      'table',
      { id: 'clusters' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Cluster', 'Ready', 'Version', 'Nodes', 'Allocatable', 'Rendered', 'Applied', ...healthCols].map(
            (t) => h('th', {}, t),
          ),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

function capacity(allocatable) {
  if (!allocatable) return '–';
  return ['cpu', 'memory', 'pods']
    .filter((k) => allocatable[k] !== undefined)
    .map((k) => `${k} ${allocatable[k]}`)
    .join(', ');
}
