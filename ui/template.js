// The template page: its binding record, its row on every cluster, its rendered file on every
// cluster (Secrets arrive with their values already redacted by the server) and its history.
import { h, short } from './dom.js';

/** Returns the template page of a template document. */
export function templatePage(doc) {
  const b = doc.binding;
  // A few rendered files are shown open; more are listed, each opened on a click.
  const shown = doc.rendered.filter((r) => r.yaml !== null).length;
  return h(
    'section',
    { id: 'template-page' },
    h('h1', {}, doc.label),
    h(
      'dl',
      { className: 'facts' },
      h('dt', {}, 'policy'),
      h(
        'dd',
        { id: 'template-policy' },
        b.policy
          ? `${b.policy.kind} ${b.policy.namespace ? `${b.policy.namespace}/` : ''}${b.policy.name}`
          : `none (${b.origin})`,
      ),
      h('dt', {}, 'replicas'),
      h('dd', {}, String(b.replicas)),
      h('dt', {}, 'placed on'),
      h(
        'dd',
        {},
        b.clusters.length === 0
          ? 'no cluster'
          : b.clusters.map((c) => (b.replicas > 0 ? `${c.name} (${c.replicas})` : c.name)).join(', '),
      ),
    ),
    b.appliedPlacement
      ? h('details', {}, h('summary', {}, 'placement'), h('pre', {}, b.appliedPlacement))
      : null,
    h('h2', {}, 'On each cluster'),
    h(
      'table',
      { id: 'template-rows' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Cluster', 'Placed', 'Replicas', 'Applied', 'Health', 'Message'].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        doc.rows.map((r) =>
          h(
            'tr',
            { 'data-cluster': r.cluster },
            h('td', {}, r.cluster),
            h('td', {}, r.placed ? 'yes' : 'no'),
            h('td', {}, r.replicas ?? ''),
            h(
              'td',
              { className: 'mono' },
              r.applied ? short(r.appliedCommit) : r.placed || r.health ? 'no' : '–',
            ),
            h('td', { className: `h-${r.health ?? 'none'}` }, r.health ?? ''),
            h('td', {}, r.message ?? ''),
          ),
        ),
      ),
    ),
    h('h2', {}, 'Rendered'),
    doc.rendered.map((r) =>
      h(
        'details',
        {
          className: 'rendered',
          'data-cluster': r.cluster,
          open: r.yaml !== null && shown <= 3,
        },
        h('summary', {}, `${r.cluster}: ${r.yaml === null ? 'not rendered there' : r.path}`),
        r.yaml === null ? null : h('pre', {}, r.yaml),
      ),
    ),
    h('h2', {}, 'History'),
    doc.history.length === 0
      ? h('p', {}, 'no render commit touched it')
      : h(
          'table',
          { id: 'template-history' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['When', 'Cluster', 'Commit', 'Source', 'Subject', 'Change'].map((t) => h('th', {}, t)),
            ),
          ),
          h(
            'tbody',
            {},
            doc.history.map((e) =>
              h(
                'tr',
                {},
                h('td', {}, new Date(e.time * 1000).toISOString().replace('T', ' ').slice(0, 19)),
                h('td', {}, e.cluster),
                h('td', { className: 'mono' }, short(e.commit)),
                h(
                  'td',
                  { className: 'mono' },
                  e.source ? h('a', { href: `#/commit/${e.source.commit}` }, short(e.source.commit)) : '–',
                ),
                h(
                  'td',
                  {},
                  e.source?.subject ?? e.subject,
                  e.decisions ? h('div', { className: 'meta' }, e.decisions.join('; ')) : null,
                ),
                h('td', {}, e.changes.map((c) => c.change).join(', ')),
              ),
            ),
          ),
        ),
  );
}
