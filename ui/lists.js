// The rollouts and evictions pages: every rollout the bindings branch records (its phase, step,
// the templates its strategy selects, where each cluster stands) and every eviction task (which
// template leaves which cluster, why, since when), as `gitfleet status` prints them
// (src/loops/ui/fleet-lists-view.ts).
import { badge, clusterHref, h, navRow, short, table, templateHref, when } from './dom.js';

/** Returns the rollouts page of a rollouts document. */
export function rolloutsPage(doc) {
  return h(
    'section',
    { id: 'rollouts-page' },
    h('h1', {}, 'Rollouts', h('span', { className: 'count' }, String(doc.rollouts.length))),
    doc.rollouts.length === 0
      ? h(
          'p',
          { id: 'rollouts-none' },
          'No rollout is recorded: every change reaches its clusters in one hub pass (see docs/rollout.md for RolloutStrategy).',
        )
      : doc.rollouts.map(rolloutBlock),
  );
}

function rolloutBlock(v) {
  if (!v.rollout)
    return h(
      'div',
      { className: 'card error', 'data-path': v.path },
      h('h2', {}, v.path),
      h('p', {}, v.unreadable),
    );
  const r = v.rollout;
  return h(
    'div',
    { className: 'card', 'data-strategy': v.strategy },
    h(
      'h2',
      {},
      `${v.strategy} `,
      h('span', { className: 'muted' }, `(${r.strategy.kind})`),
      ' ',
      badge(r.phase),
      h('span', { className: 'count' }, `step ${r.step} of ${r.steps}`),
    ),
    h(
      'p',
      { className: 'meta' },
      'revision ',
      h('a', { className: 'mono', href: `#/commit/${r.revision}` }, short(r.revision)),
      ' · step started ',
      when(r.stepStartedAt),
      r.healthySince ? [' · healthy since ', when(r.healthySince)] : null,
    ),
    r.message ? h('p', { className: 'callout', 'data-rollout-message': '' }, r.message) : null,
    v.templates.length > 0
      ? h(
          'p',
          {},
          'Selects ',
          v.templates.map((t, i) => [i > 0 ? ', ' : '', h('a', { href: templateHref(t.key) }, t.label)]),
        )
      : null,
    table(
      null,
      ['Cluster', 'Step', 'State', 'Runs', 'Why'],
      r.clusters.map((c) =>
        navRow(
          clusterHref(c.name),
          { 'data-cluster': c.name },
          h('td', {}, h('a', { href: clusterHref(c.name) }, c.name)),
          h('td', { className: 'num' }, `${c.step}/${r.steps}`),
          h('td', {}, badge(c.state)),
          h('td', { className: 'mono' }, c.commit ? short(c.commit) : '–'),
          h('td', {}, c.message ?? ''),
        ),
      ),
      'rollout-clusters',
    ),
  );
}

/** Returns the evictions page of an evictions document. */
export function evictionsPage(doc) {
  const judged = Object.entries(doc.judged);
  return h(
    'section',
    { id: 'evictions-page' },
    h('h1', {}, 'Evictions', h('span', { className: 'count' }, String(doc.evictions.length))),
    judged.length > 0
      ? h(
          'p',
          { className: 'callout', id: 'evictions-judged' },
          "The hub's cluster monitor judged ",
          judged.map(([c, v], i) => [i > 0 ? ', ' : '', h('a', { href: clusterHref(c) }, c), `=${v}`]),
          ': their agents stopped renewing their heartbeats.',
        )
      : null,
    doc.evictions.length === 0
      ? h('p', { id: 'evictions-none' }, 'No template is being evicted from any cluster.')
      : table(
          'evictions',
          ['Template', 'Evicted from', 'Reason', 'Producer', 'Purge mode', 'Since', 'Until', 'Message'],
          doc.evictions.map((e) =>
            navRow(
              templateHref(e.key ?? e.template),
              { 'data-template': e.template, 'data-cluster': e.cluster },
              h('td', {}, h('a', { href: templateHref(e.key ?? e.template) }, e.template)),
              h('td', {}, h('a', { href: clusterHref(e.cluster) }, e.cluster)),
              h('td', {}, e.reason ?? '–'),
              h('td', {}, e.producer ?? '–'),
              h('td', {}, e.purgeMode ?? '–'),
              h('td', {}, when(e.since)),
              h('td', {}, e.until ? when(e.until) : 'a person decides'),
              h('td', {}, e.message ?? ''),
            ),
          ),
        ),
  );
}
