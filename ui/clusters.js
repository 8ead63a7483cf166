// The clusters page: one row per cluster, the summary `gitfleet status` prints (Ready, version,
// nodes, rendered and applied commit, object health counts, report age) plus the reported capacity.
import { h, short } from './dom.js';

const healthCols = [
  ['healthy', 'Healthy'],
  ['progressing', 'Progressing'],
  ['degraded', 'Degraded'],
  ['unknown', 'Unknown'],
  ['failed', 'Not applied'],
];

/** Returns the clusters page of an overview document. */
export function clustersPage(overview) {
  if (overview.state === 'noHub')
    return h('section', {}, h('h1', {}, 'Clusters'), h('p', {}, 'No hub branches yet: see above.'));
  const rows = overview.clusters.map((c) =>
    h(
      'tr',
      { 'data-cluster': c.cluster, className: c.ready === 'Unreadable' ? 'unreadable' : '' },
      h('td', {}, c.cluster),
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
            h('td', {}, age(c.reportAgeSeconds)),
          ],
    ),
  );
  const heads = ['Cluster', 'Ready', 'Version', 'Nodes', 'Allocatable', 'Rendered', 'Applied', 'Behind'];
  return h(
    'section',
    {},
    h('h1', {}, 'Clusters'),
    h(
      'p',
      { className: 'meta' },
      'bindings ',
      h('span', { className: 'mono' }, short(overview.bindingsHead)),
      overview.bindingsTime ? ` (${overview.bindingsTime})` : '',
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

function age(seconds) {
  if (seconds === undefined) return '–';
  if (seconds < 120) return `${seconds}s ago`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86400)}d ago`;
}

function capacity(allocatable) {
  if (!allocatable) return '–';
  return ['cpu', 'memory', 'pods']
    .filter((k) => allocatable[k] !== undefined)
    .map((k) => `${k} ${allocatable[k]}`)
    .join(', ');
}
