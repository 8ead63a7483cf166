// The template page: its health and sync, why it is not Healthy, its binding record (policy, template source,
// replicas, placement), its row on every cluster, the eviction tasks and the rollout it is in,
// what each cluster's agent reported of the live object, its rendered file on every cluster
// (Secrets arrive with their values already redacted by the server) and its history.
import { badge, clusterHref, h, navRow, reasonTag, short, table, when } from './dom.js';

/** Returns the template page of a template document. */
export function templatePage(doc) {
  const b = doc.binding;
  const s = doc.summary;
  return h(
    'section',
    { id: 'template-page' },
    h('h1', {}, doc.label, ' ', s ? [badge(s.health), ' ', badge(s.sync)] : null),
    s?.reason ? h('p', { className: 'callout', id: 'template-reason' }, reasonTag(s.why), s.reason) : null,
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
      b.templateSource
        ? [
            h('dt', {}, 'source'),
            h(
              'dd',
              { id: 'template-source' },
              doc.explanation?.source ?? `${b.templateSource.kind}/${b.templateSource.name}`,
              h('div', { className: 'muted', id: 'template-source-file' }, b.templateSource.renderedFile),
            ),
          ]
        : null,
      h('dt', {}, 'replicas'),
      h('dd', {}, String(b.replicas)),
      h('dt', {}, 'placed on'),
      h(
        'dd',
        { id: 'template-placed' },
        b.clusters.length === 0
          ? 'no cluster'
          : b.clusters.map((c, i) => [
              i > 0 ? ', ' : '',
              h('a', { href: clusterHref(c.name) }, c.name),
              b.replicas > 0 ? ` (${c.replicas})` : '',
            ]),
      ),
      doc.rollout
        ? [h('dt', {}, 'rollout'), h('dd', {}, h('a', { href: '#/rollouts' }, doc.rollout.strategy))]
        : null,
      s && Object.keys(s.labels).length > 0
        ? [
            h('dt', {}, 'labels'),
            h(
              'dd',
              {},
              Object.entries(s.labels).map(([k, v]) => h('span', { className: 'label' }, `${k}=${v}`)),
            ),
          ]
        : null,
    ),
    b.appliedPlacement
      ? h('details', {}, h('summary', {}, 'placement'), h('pre', {}, b.appliedPlacement))
      : null,
    h('h2', {}, 'On each cluster'),
    clusterRows(doc),
    doc.evictions.length > 0
      ? [h('h2', {}, 'Being evicted'), evictionRows(doc.evictions, doc.explanation)]
      : null,
    doc.rollout?.record?.rollout
      ? [h('h2', {}, `Rollout ${doc.rollout.strategy}`), rolloutRows(doc.rollout.record.rollout)]
      : null,
    h('h2', {}, 'Live status, as the agents report it'),
    liveStatus(doc.live),
    h('h2', {}, 'Rendered'),
    doc.rendered.map((r) =>
      h(
        'details',
        { className: 'rendered', 'data-cluster': r.cluster },
        h('summary', {}, `${r.cluster}: ${r.yaml === null ? 'not rendered there' : r.path}`),
        r.yaml === null ? null : h('pre', {}, r.yaml),
      ),
    ),
    h('h2', {}, 'History'),
    history(doc.history),
  );
}

// One line per cluster: its status row (placed, replicas, applied commit, health) and why the
// template is as it is there: the explanation's reason and message, as `gitfleet status
// --template` prints them.
function clusterRows(doc) {
  const explained = new Map((doc.explanation?.clusters ?? []).map((c) => [c.cluster, c]));
  const rows = new Map(doc.rows.map((r) => [r.cluster, r]));
  const order = (cluster) => rowRank(rows.get(cluster), explained.get(cluster));
  const names = [...new Set([...doc.rows.map((r) => r.cluster), ...explained.keys()])].sort(
    (a, b) => order(a) - order(b) || (a < b ? -1 : 1),
  );
  return table(
    'template-rows',
    ['Cluster', 'Placed', 'Replicas', 'Applied', 'Health', 'Why'],
    names.map((cluster) => {
      const r = rows.get(cluster) ?? { cluster, placed: false };
      const e = explained.get(cluster);
      return navRow(
        clusterHref(cluster),
        { 'data-cluster': cluster, 'data-reason': e?.reason, className: r.placed ? '' : 'unplaced' },
        h('td', {}, h('a', { href: clusterHref(cluster) }, cluster)),
        h('td', {}, r.placed ? 'yes' : 'no'),
        h('td', { className: 'num' }, r.replicas ?? ''),
        h(
          'td',
          { className: 'mono' },
          r.applied ? short(r.appliedCommit) : r.placed || r.health ? 'no' : '–',
        ),
        h('td', {}, r.health ? badge(r.health) : ''),
        h('td', {}, e ? [reasonTag(e.reason), e.message] : (r.message ?? '')),
      );
    }),
  );
}

// Problems first, as on the cluster page: the clusters it is placed on and not Healthy (failing,
// held, not ready…), then those it is being evicted from, then the Healthy ones, then the
// clusters it is not placed on; so on 50 clusters the few that need a look are on top.
function rowRank(row, explained) {
  if (explained?.reason === 'Evicting') return 1;
  if (!row?.placed) return 3;
  return explained?.reason === 'Healthy' ? 2 : 0;
}

function evictionRows(tasks, explanation) {
  const until = (cluster) => explanation?.clusters.find((c) => c.cluster === cluster)?.eviction?.until;
  return table(
    'template-evictions',
    ['From', 'Reason', 'Producer', 'Purge mode', 'Since', 'Until', 'Message'],
    tasks.map((e) =>
      h(
        'tr',
        { 'data-cluster': e.cluster },
        h('td', {}, h('a', { href: clusterHref(e.cluster) }, e.cluster)),
        h('td', {}, e.reason ?? '–'),
        h('td', {}, e.producer ?? '–'),
        h('td', {}, e.purgeMode ?? '–'),
        h('td', {}, when(e.since)),
        h('td', {}, until(e.cluster) ? when(until(e.cluster)) : 'a person decides'),
        h('td', {}, e.message ?? ''),
      ),
    ),
  );
}

function rolloutRows(r) {
  return [
    h(
      'p',
      { id: 'template-rollout' },
      badge(r.phase),
      ` step ${r.step} of ${r.steps}, revision `,
      h('a', { className: 'mono', href: `#/commit/${r.revision}` }, short(r.revision)),
      ', step started ',
      when(r.stepStartedAt),
      r.message ? `: ${r.message}` : '',
    ),
    table(
      'template-rollout-clusters',
      ['Cluster', 'Step', 'State', 'Runs', 'Why'],
      r.clusters.map((c) =>
        h(
          'tr',
          { 'data-cluster': c.name },
          h('td', {}, c.name),
          h('td', { className: 'num' }, `${c.step}/${r.steps}`),
          h('td', {}, badge(c.state)),
          h('td', { className: 'mono' }, c.commit ? short(c.commit) : '–'),
          h('td', {}, c.message ?? ''),
        ),
      ),
    ),
  ];
}

// The failover and rollout decisions behind a render, folded: they can be many lines.
function decisions(lines) {
  if (!lines || lines.length === 0) return null;
  return h(
    'details',
    { className: 'decisions' },
    h('summary', { className: 'meta' }, `why: ${lines.length} decision${lines.length > 1 ? 's' : ''}`),
    h(
      'ul',
      { className: 'meta' },
      lines.map((l) => h('li', {}, l)),
    ),
  );
}

// Per cluster: the health and its message, the conditions of the reflected status, the other
// reflected fields. Kubernetes events are not in the status branch: the page says so.
function liveStatus(live) {
  if (live.length === 0)
    return h('p', { className: 'muted', id: 'template-live-none' }, 'No agent reports this object.');
  return h(
    'div',
    { id: 'template-live' },
    live.map((l) => {
      const status = l.status ?? {};
      const conditions = Array.isArray(status.conditions) ? status.conditions : [];
      const fields = Object.entries(status).filter(([k]) => k !== 'conditions');
      return h(
        'div',
        { className: 'live', 'data-cluster': l.cluster },
        h(
          'h3',
          {},
          l.cluster,
          ' ',
          l.applied ? badge(l.health) : badge('NotApplied'),
          l.healthMessage ? h('span', { className: 'live-message' }, l.healthMessage) : null,
        ),
        !l.applied && l.message ? h('p', { className: 'error' }, `apply failed: ${l.message}`) : null,
        conditions.length > 0
          ? table(
              null,
              ['Condition', 'Status', 'Reason', 'Message'],
              conditions.map((c) =>
                h(
                  'tr',
                  {},
                  h('td', {}, String(c.type ?? '')),
                  h('td', { className: `st-${c.status}` }, String(c.status ?? '')),
                  h('td', {}, String(c.reason ?? '')),
                  h('td', {}, String(c.message ?? '')),
                ),
              ),
              'conditions',
            )
          : null,
        fields.length > 0
          ? h(
              'p',
              { className: 'fields mono' },
              fields.map(([k, v]) =>
                h('span', {}, `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`),
              ),
            )
          : null,
      );
    }),
    h(
      'p',
      { className: 'meta' },
      'Kubernetes events are not in the status branch: the agents report health, conditions and status fields only.',
    ),
  );
}

function history(entries) {
  if (entries.length === 0) return h('p', {}, 'no render commit touched it');
  return table(
    'template-history',
    ['When', 'Cluster', 'Commit', 'Source', 'Change', 'Subject'],
    entries.map((e) =>
      h(
        'tr',
        {},
        h('td', {}, when(new Date(e.time * 1000).toISOString())),
        h('td', {}, e.cluster),
        h('td', { className: 'mono' }, short(e.commit)),
        h(
          'td',
          { className: 'mono' },
          e.source ? h('a', { href: `#/commit/${e.source.commit}` }, short(e.source.commit)) : '–',
        ),
        h('td', {}, e.changes.map((c) => c.change).join(', ')),
        h('td', {}, e.source?.subject ?? e.subject, decisions(e.decisions)),
      ),
    ),
  );
}
