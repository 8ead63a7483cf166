// The commit page: the per-cluster diff of a source commit against its parent, or of a range
// `base..head` (a pull request's two sides), and why the change leaves templates unplaced or
// held, as `gitfleet diff` computes it.
import { h, reasonTag, short } from './dom.js';

/** Returns the commit page for a revision (or range) and its diff document. */
export function commitPage(rev, doc, navigate) {
  const input = h('input', {
    id: 'commit-rev',
    value: rev,
    size: 40,
    placeholder: 'a commit, or base..head',
  });
  const form = h(
    'form',
    {
      className: 'tools',
      onsubmit: (e) => {
        e.preventDefault();
        navigate(`#/commit/${encodeURIComponent(input.value.trim() || 'HEAD')}`);
      },
    },
    h('label', {}, 'commit or range ', input),
    h('button', { type: 'submit' }, 'Show'),
  );
  const head = [h('h1', {}, 'Commit'), form];
  if (!doc || !doc.ok) {
    const errors = doc?.errors ?? [`${rev}: not found`];
    return h(
      'section',
      { id: 'commit-page' },
      head,
      h(
        'div',
        { className: 'error', id: 'commit-errors' },
        errors.map((e) => h('p', {}, e)),
      ),
    );
  }
  const { diff } = doc;
  return h(
    'section',
    { id: 'commit-page' },
    head,
    h(
      'p',
      { className: 'meta', id: 'commit-sides' },
      'base ',
      h('span', { className: 'mono' }, short(doc.base.commit)),
      ` ${doc.subjects.base} → head `,
      h('span', { className: 'mono' }, short(doc.head.commit)),
      ` ${doc.subjects.head}`,
    ),
    h('p', { id: 'commit-verdict' }, doc.verdict.text),
    h('p', { className: 'meta', id: 'commit-state' }, doc.state.note),
    whyList(doc.why ?? []),
    !diff.changed ? h('p', { id: 'commit-nochange' }, 'No rendered output changes.') : null,
    diff.clusters.length === 0
      ? null
      : h(
          'table',
          { id: 'commit-clusters' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Cluster', 'Added', 'Changed', 'Removed', 'Held'].map((t) => h('th', {}, t)),
            ),
          ),
          h(
            'tbody',
            {},
            diff.clusters.map((c) =>
              h(
                'tr',
                { 'data-cluster': c.cluster },
                h('td', {}, c.cluster, c.presence !== 'both' ? ` (${c.presence})` : ''),
                h('td', {}, c.added),
                h('td', {}, c.changed),
                h('td', {}, c.removed),
                h('td', {}, c.held.length),
              ),
            ),
          ),
        ),
    h('h2', {}, 'Diff'),
    h(
      'pre',
      { id: 'commit-diff', className: 'diff' },
      doc.text.split('\n').map((line) => h('span', { className: lineClass(line) }, `${line}\n`)),
    ),
  );
}

// Why the change leaves templates placed nowhere, off a cluster, or held behind a rollout step,
// in the words `gitfleet status` uses (the pull request comment's Why).
function whyList(why) {
  if (why.length === 0) return null;
  return [
    h('h2', {}, 'Why'),
    h(
      'ul',
      { id: 'commit-why' },
      why.map((w) =>
        h(
          'li',
          { 'data-template': w.template, 'data-reason': w.reason },
          reasonTag(w.reason),
          h('b', {}, w.template),
          `: ${w.message}`,
        ),
      ),
    ),
  ];
}

// A `#` line is the diff's own words (verdict, hub state, why, a cluster's counts): it wraps at
// the box's width, where the rendered files' lines scroll.
function lineClass(line) {
  if (line.startsWith('#')) return 'note';
  if (line.startsWith('+++') || line.startsWith('---')) return 'file';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('@@')) return 'hunk';
  return '';
}
