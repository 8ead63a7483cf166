// The dashboard's page: one document, routed by the URL's hash, each page drawn from one JSON
// document of the server (/api/overview, /api/matrix, /api/template, /api/commit). When a branch
// moves the server sends `changed` on /api/events and the page in view is fetched and drawn
// again, keeping its filters and scroll: no reload.
import { getJson, h } from './dom.js';
import { matrixPage } from './matrix.js';
import { clustersPage } from './clusters.js';
import { templatePage } from './template.js';
import { commitPage } from './commit.js';

const page = document.getElementById('page');
const banner = document.getElementById('banner');
const live = document.getElementById('live');
const matrixState = {};
let drawing = 0;

async function show() {
  const run = ++drawing;
  const route = location.hash.replace(/^#\/?/, '') || 'clusters';
  const [name, ...rest] = route.split('/');
  const arg = decodeURIComponent(rest.join('/'));
  try {
    const overview = await getJson('/api/overview');
    document.getElementById('repo').textContent = overview.repo;
    showBanner(overview);
    document.body.dataset.generation = String(overview.generation);
    const view = await pageFor(name, arg, overview);
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
    // Which route is drawn, so a reader (or a test) can tell the new page from the one before it.
    document.body.dataset.route = location.hash || '#/clusters';
  } catch (error) {
    if (run === drawing)
      page.replaceChildren(h('p', { className: 'error' }, `Could not read the dashboard: ${error.message}`));
  }
}

async function pageFor(name, arg, overview) {
  switch (name) {
    case 'matrix':
      return overview.state === 'ok'
        ? matrixPage(await getJson('/api/matrix'), matrixState, go)
        : h('p', {}, 'Nothing to show yet.');
    case 'template': {
      const doc = await getJson(`/api/template?key=${encodeURIComponent(arg)}`);
      return doc
        ? templatePage(doc)
        : h('p', { className: 'error' }, `No template ${arg} in the bindings branch.`);
    }
    case 'commit':
      return commitPage(
        arg || 'HEAD',
        await getJson(`/api/commit?rev=${encodeURIComponent(arg || 'HEAD')}`),
        go,
      );
    default:
      return clustersPage(overview);
  }
}

// A live update draws the page anew while someone may be typing in one of its fields (the
// matrix's filters): the field with the focus is found again by its id in the new page and gets
// the focus back, with the text typed so far and the caret where it was.
function focusOf(root) {
  const el = document.activeElement;
  if (!el || !el.id || !root.contains(el)) return undefined;
  const typed = 'value' in el && typeof el.selectionStart === 'number';
  return {
    id: el.id,
    value: typed ? el.value : undefined,
    selection: typed ? [el.selectionStart, el.selectionEnd, el.selectionDirection] : undefined,
  };
}

function restoreFocus(focus) {
  if (!focus) return;
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

function go(hash) {
  location.hash = hash;
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
    live.dataset.generation = String(generation);
    void show();
  });
}

window.addEventListener('hashchange', () => void show());
listen();
void show();
