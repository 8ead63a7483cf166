// The dashboard's page: one document, routed by the URL's hash, each page drawn from one JSON
// document of the server (/api/overview, /api/templates, /api/template, /api/cluster,
// /api/matrix, /api/rollouts, /api/evictions, /api/commit). When a branch moves the server sends
// `changed` on /api/events and the page in view is fetched and drawn again, keeping its filters,
// scroll, focus and selected row: no reload. The search box (`/`) filters the templates and
// clusters pages; keys.js moves through the rows.
import { getJson, h, refreshTimes } from './dom.js';
import { keyHelp, listenKeys } from './keys.js';

// Each page's module, loaded when a route first needs it, while its documents are fetched.
const modules = {
  templates: './templates.js',
  template: './template.js',
  clusters: './clusters.js',
  cluster: './cluster.js',
  matrix: './matrix.js',
  rollouts: './lists.js',
  evictions: './lists.js',
  commit: './commit.js',
};

const page = document.getElementById('page');
const banner = document.getElementById('banner');
const live = document.getElementById('live');
const search = document.getElementById('search');
const help = document.getElementById('help');
const matrixState = {};
const templatesState = {};
let drawing = 0;
/** The documents the page in view was drawn from, for drawing it again in place (a search, a chip). */
const kept = new Map();
let keepNext = false;
/** The routes seen in this tab, for Esc: back when there is a page before, else up. */
const trail = [];

function routeOf() {
  const route = location.hash.replace(/^#\/?/, '') || 'templates';
  const [name, ...rest] = route.split('/');
  return { name, arg: decodeURIComponent(rest.join('/')) };
}

// The page's documents: fetched again for a navigation or a live update, taken from `kept` when
// the same page is drawn again for a search or a filter (typing costs no request).
function fetchDoc(path) {
  if (!keepNext || !kept.has(path)) kept.set(path, getJson(path));
  const got = kept.get(path);
  got.catch(() => kept.delete(path));
  return got;
}

async function show({ again = false } = {}) {
  const run = ++drawing;
  keepNext = again;
  if (!again) kept.clear();
  const { name, arg } = routeOf();
  try {
    // The page's module and document are asked for at once with the overview.
    const module = import(modules[name] ?? modules.templates);
    const pageDoc = docOf(name, arg);
    pageDoc?.catch(() => undefined);
    const overview = await fetchDoc('/api/overview');
    document.getElementById('repo').textContent = overview.repo;
    showBanner(overview);
    showCounts(overview);
    document.body.dataset.generation = String(overview.generation);
    const view = await pageFor({ name, arg, overview, module: await module, doc: () => pageDoc });
    if (run !== drawing) return;
    const scroll = document.getElementById('matrix-scroll')?.scrollTop;
    const focus = focusOf(page);
    page.replaceChildren(view);
    restoreFocus(focus);
    if (scroll !== undefined)
      requestAnimationFrame(() => {
        const scroller = document.getElementById('matrix-scroll');
        if (scroller) scroller.scrollTop = scroll;
      });
    document.body.dataset.page = name;
    // For the benchmark (bench/ui-overview-loads.ts): when each page was last drawn.
    performance.mark(`page-drawn-${name}`);
    for (const a of document.querySelectorAll('header nav a'))
      a.classList.toggle('here', a.dataset.page === name || a.dataset.page === `${name}s`);
    // Which route is drawn, so a reader (or a test) can tell the new page from the one before it.
    document.body.dataset.route = location.hash || '#/templates';
  } catch (error) {
    if (run === drawing)
      page.replaceChildren(h('p', { className: 'error' }, `Could not read the dashboard: ${error.message}`));
  }
}

// The document a route is drawn from (the overview aside), or undefined for one drawn from the overview.
function docOf(name, arg) {
  switch (name) {
    case 'matrix':
      return fetchDoc('/api/matrix');
    case 'clusters':
      return undefined;
    case 'cluster':
      return fetchDoc(`/api/cluster?name=${encodeURIComponent(arg)}`);
    case 'template':
      return fetchDoc(`/api/template?key=${encodeURIComponent(arg)}`);
    case 'rollouts':
      return fetchDoc('/api/rollouts');
    case 'evictions':
      return fetchDoc('/api/evictions');
    case 'commit':
      return fetchDoc(`/api/commit?rev=${encodeURIComponent(arg || 'HEAD')}`);
    default:
      return fetchDoc('/api/templates');
  }
}

async function pageFor({ name, arg, overview, module: m, doc }) {
  if (overview.state !== 'ok' && name !== 'commit')
    return h(
      'section',
      {},
      h('h1', {}, 'Nothing to show yet'),
      h('p', {}, 'No hub branches yet: see above.'),
    );
  switch (name) {
    case 'matrix':
      return m.matrixPage(await doc(), matrixState, go);
    case 'clusters':
      return m.clustersPage(overview, search.value);
    case 'cluster': {
      const found = await doc();
      return found
        ? m.clusterPage(found)
        : h('p', { className: 'error' }, `No cluster ${arg} in this fleet.`);
    }
    case 'template': {
      const found = await doc();
      return found
        ? m.templatePage(found)
        : h('p', { className: 'error' }, `No template ${arg} in the bindings branch.`);
    }
    case 'rollouts':
      return m.rolloutsPage(await doc());
    case 'evictions':
      return m.evictionsPage(await doc());
    case 'commit':
      return m.commitPage(arg || 'HEAD', await doc(), go);
    default:
      return m.templatesPage(await doc(), overview, templatesState, search.value);
  }
}

// A live update draws the page anew while someone may be typing in one of its fields (the
// matrix's filters) or has selected a row: the field with the focus is found again by its id
// (the row by its href) in the new page and gets the focus back, with the text typed so far and
// the caret where it was.
function focusOf(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return undefined;
  if (el.dataset?.href && !el.id) return { href: el.dataset.href };
  if (!el.id) return undefined;
  const typed = 'value' in el && typeof el.selectionStart === 'number';
  return {
    id: el.id,
    value: typed ? el.value : undefined,
    selection: typed ? [el.selectionStart, el.selectionEnd, el.selectionDirection] : undefined,
  };
}

function restoreFocus(focus) {
  if (!focus) return;
  if (focus.href) {
    const row = [...page.querySelectorAll('[data-href]')].find((r) => r.dataset.href === focus.href);
    row?.focus({ preventScroll: true });
    return;
  }
  const el = document.getElementById(focus.id);
  if (!el || !page.contains(el)) return;
  if (focus.value !== undefined && el.value !== focus.value) {
    el.value = focus.value;
    el.dispatchEvent(new window.Event('input', { bubbles: true }));
  }
  el.focus({ preventScroll: true });
  if (focus.selection) el.setSelectionRange(...focus.selection);
}

function showBanner(overview) {
  const messages = [];
  if (overview.state === 'noHub') messages.push(overview.hint);
  const unreadable = Object.keys(overview.unreadable);
  if (unreadable.length > 0)
    messages.push(
      `The status branch of ${unreadable.join(', ')} does not read: shown as unreadable, the rest as reported.`,
    );
  banner.hidden = messages.length === 0;
  banner.replaceChildren(...messages.map((m) => h('p', {}, m)));
  banner.className = overview.state === 'noHub' ? 'banner warn' : 'banner';
}

// The rollouts and evictions in the navigation say how many there are, so they are seen from any page.
function showCounts(overview) {
  const counts = overview.counts ?? {};
  for (const [id, n] of [
    ['nav-rollouts', counts.rolloutsInProgress],
    ['nav-evictions', counts.evictions],
  ]) {
    const el = document.getElementById(id);
    el.textContent = n ? String(n) : '';
    el.hidden = !n;
  }
}

function go(hash) {
  if (location.hash === hash) void show();
  else location.hash = hash;
}

// Esc: the page before when this tab came from one, else the list the page belongs to.
function back() {
  if (trail.length > 1) {
    history.back();
    return;
  }
  const { name } = routeOf();
  go(name === 'cluster' ? '#/clusters' : '#/templates');
}

function listen() {
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    live.textContent = 'live';
    live.className = 'on';
  });
  events.addEventListener('error', () => {
    live.textContent = 'reconnecting…';
    live.className = 'off';
  });
  events.addEventListener('changed', (event) => {
    const { generation } = JSON.parse(event.data);
    live.textContent = `live · updated ${new Date().toLocaleTimeString()}`;
    live.title = `the repository was read again at ${new Date().toISOString()}`;
    live.dataset.generation = String(generation);
    void show();
  });
}

// Typing in the search box filters the templates page (or the clusters page, where it is), in
// place: the URL keeps the query (`?q=`), so a search can be shared, without a new history entry per key.
function listenSearch() {
  const initial = new URLSearchParams(location.search).get('q');
  if (initial) search.value = initial;
  search.addEventListener('input', () => {
    const url = new URL(location.href);
    if (search.value) url.searchParams.set('q', search.value);
    else url.searchParams.delete('q');
    const { name } = routeOf();
    if (name !== 'templates' && name !== 'clusters') url.hash = '#/templates';
    const again = url.hash === location.hash;
    history.replaceState(null, '', url);
    void show({ again });
  });
}

function drawHelp() {
  help.replaceChildren(
    h('h2', {}, 'Keys'),
    h(
      'dl',
      {},
      keyHelp.map(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)]),
    ),
    h('p', { className: 'meta' }, 'Esc or ? closes this.'),
  );
}

window.addEventListener('hashchange', () => {
  const route = location.hash;
  if (trail.length > 1 && trail[trail.length - 2] === route) trail.pop();
  else trail.push(route);
  void show();
});
document.addEventListener('gitfleet:redraw', () => void show({ again: true }));
trail.push(location.hash || '#/templates');
drawHelp();
document.getElementById('help-button').addEventListener('click', () => (help.hidden = !help.hidden));
listenKeys({ page, search, go, back, help });
listenSearch();
listen();
setInterval(() => refreshTimes(page), 30_000);
void show();
