// The templates × clusters matrix, drawn on a canvas: only the rows in view are drawn, so 2,000
// templates × 50 clusters costs what 40 rows cost, and a filter is one pass over an array of
// row numbers. Each cell is one character of the server's `cells` string (see
// src/loops/ui/dashboard-view.ts): the health letter, upper case where the template is placed,
// lower case where it is not placed but the agent still reports it, X for a cluster whose
// status does not read. The sizes are chosen once the page has its width (sizeFor): on a small
// fleet the cells grow to fill it, carry their letter, and the box shrinks to its rows, so the
// page is not mostly white; on a big one they stay 18 px. j/k (or ↑/↓) move a row cursor while
// the matrix has the focus, Enter opens the template under it.
import { h } from './dom.js';

const MAX_LABEL_W = 340;
const MIN_CELL = 18;
const MAX_CELL = 56;

const colours = {
  H: '#2da44e',
  P: '#d4a72c',
  D: '#cf222e',
  U: '#8c959f',
  F: '#8250df',
  X: '#24292f',
  '.': '#eef1f4',
};

/** What each cell code means, in the words the legend and the hover line use. */
export const cellMeaning = {
  H: 'Healthy',
  P: 'Progressing',
  D: 'Degraded',
  U: 'Unknown',
  F: 'apply failed',
  X: 'status unreadable',
  '.': 'not placed',
};

/** Returns the matrix page for a matrix document; `state` keeps the filters and the cursor across live updates. */
export function matrixPage(doc, state, navigate) {
  const count = h('span', { id: 'matrix-count' });
  const detail = h(
    'div',
    { id: 'matrix-detail' },
    'point at a cell, or j/k; click or Enter opens the template',
  );
  const canvas = h('canvas', {
    id: 'matrix',
    tabindex: '0',
    'aria-label': 'templates × clusters: j and k move, Enter opens the template',
  });
  const spacer = h('div', { className: 'matrix-spacer' });
  const scroller = h('div', { id: 'matrix-scroll' }, canvas, spacer);
  const view = { doc, state, canvas, scroller, rows: [], cols: [], size: sizeFor(doc, 1000, null) };
  const update = (key, value) => {
    state[key] = value;
    state.cursor = undefined;
    apply(view, count, spacer);
    performance.mark('matrix-filtered');
  };
  const legend = h(
    'div',
    { className: 'legend' },
    Object.entries(cellMeaning).map(([code, text]) =>
      h('span', {}, h('i', { className: `swatch c-${code === '.' ? 'none' : code}` }), text),
    ),
    h('span', {}, 'faded: not placed, still reported'),
  );
  scroller.addEventListener('scroll', () => requestAnimationFrame(() => drawMatrix(view)));
  canvas.addEventListener('mousemove', (event) => {
    detail.textContent = describeAt(view, cellAt(view, event));
  });
  canvas.addEventListener('click', (event) => {
    const at = cellAt(view, event);
    if (at?.template) navigate(`#/template/${encodeURIComponent(at.template.key)}`);
    else if (at?.cluster) navigate(`#/cluster/${encodeURIComponent(at.cluster)}`);
  });
  canvas.addEventListener('keydown', (event) => keyOnMatrix(view, event, detail, navigate));
  const page = h(
    'section',
    { id: 'matrix-page' },
    h('h1', {}, 'Templates × clusters'),
    tools(doc, state, update, count),
    legend,
    detail,
    scroller,
  );
  // Sized once the page is in the document, so the canvas fills the space it has.
  requestAnimationFrame(() => {
    view.size = sizeFor(doc, page.clientWidth, canvas.getContext('2d'));
    setSizeData(canvas, view.size);
    apply(view, count, spacer);
    performance.mark('matrix-drawn');
    page.dataset.drawn = 'true';
  });
  return page;
}

function tools(doc, state, update, count) {
  const namespaces = [...new Set(doc.templates.map((t) => t.namespace))].sort();
  const kinds = [...new Set(doc.templates.map((t) => t.kind))].sort();
  const select = (id, label, values, key) =>
    h(
      'label',
      {},
      `${label} `,
      h(
        'select',
        { id, onchange: (e) => update(key, e.target.value) },
        h('option', { value: '' }, 'all'),
        values.map((v) => h('option', { value: v, selected: state[key] === v }, v || '(cluster-scoped)')),
      ),
    );
  const input = (id, label, key, placeholder) =>
    h(
      'label',
      {},
      `${label} `,
      h('input', { id, value: state[key] ?? '', placeholder, oninput: (e) => update(key, e.target.value) }),
    );
  return h(
    'div',
    { className: 'tools' },
    select('filter-namespace', 'namespace', namespaces, 'namespace'),
    select('filter-kind', 'kind', kinds, 'kind'),
    input('filter-label', 'label', 'label', 'app=web'),
    input('filter-cluster', 'cluster', 'cluster', 'name contains'),
    count,
  );
}

/**
 * Returns the matrix's sizes for a width: cells from 18 px up to 56 px, as wide as the width
 * allows with every cluster in view; the label column as wide as the longest label (at most 340 px);
 * the header as tall as the longest cluster name needs, written at 60°.
 */
function sizeFor(doc, width, ctx) {
  const measure = (text) => (ctx ? ctx.measureText(text).width : text.length * 7);
  if (ctx) ctx.font = '12px system-ui, sans-serif';
  let longest = 0;
  for (const t of doc.templates.length > 5000 ? doc.templates.slice(0, 5000) : doc.templates)
    longest = Math.max(longest, measure(t.label));
  const label = Math.min(MAX_LABEL_W, Math.ceil(longest) + 16);
  const n = Math.max(1, doc.clusters.length);
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((width - label - 24) / n)));
  const name = Math.max(0, ...doc.clusters.map((c) => measure(c)));
  const header = Math.min(140, Math.max(48, Math.ceil(Math.min(name, 150) * Math.sin(Math.PI / 3)) + 16));
  return { label, cell, row: cell >= 28 ? 24 : MIN_CELL, header };
}

function setSizeData(canvas, size) {
  canvas.dataset.labelWidth = String(size.label);
  canvas.dataset.cellWidth = String(size.cell);
  canvas.dataset.rowHeight = String(size.row);
  canvas.dataset.headerHeight = String(size.header);
}

// Filters the rows and columns, sizes the box to them (no taller than the window allows) and draws.
function apply(view, count, spacer) {
  const { doc, state, canvas, scroller, size } = view;
  view.rows = filterRows(doc, state);
  view.cols = doc.clusters
    .map((c, i) => i)
    .filter((i) => !state.cluster || doc.clusters[i].includes(state.cluster));
  count.textContent = `${view.rows.length} of ${doc.templates.length} templates × ${view.cols.length} of ${doc.clusters.length} clusters`;
  scroller.dataset.rows = String(view.rows.length);
  scroller.dataset.cols = String(view.cols.length);
  const content = size.header + view.rows.length * size.row + 2;
  const room = Math.max(240, window.innerHeight - scroller.getBoundingClientRect().top - 16);
  scroller.style.height = `${Math.min(content, room) + 2}px`;
  // The box is as wide as its content (width: max-content), at most the page's width.
  const avail = scroller.parentElement?.clientWidth ?? scroller.clientWidth;
  const width = Math.min(avail - 2, size.label + view.cols.length * size.cell + size.header);
  const height = Math.min(content, room);
  const ratio = window.devicePixelRatio || 1;
  // A canvas resized is a new bitmap: only when the size changed.
  if (canvas.width !== width * ratio) canvas.width = width * ratio;
  if (canvas.height !== height * ratio) canvas.height = height * ratio;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.dataset.ratio = String(ratio);
  spacer.style.height = `${Math.max(0, content - height)}px`;
  spacer.style.width = `${size.label + view.cols.length * size.cell}px`;
  drawMatrix(view);
}

function cellAt(view, event) {
  const { canvas, scroller, size, rows, cols, doc } = view;
  const box = canvas.getBoundingClientRect();
  const x = event.clientX - box.left;
  const y = event.clientY - box.top;
  const row = Math.floor((y - size.header + scroller.scrollTop) / size.row);
  const col = Math.floor((x - size.label) / size.cell);
  // A column's name (the header) stands for its cluster.
  if (y < size.header) {
    const c = col >= 0 && col < cols.length ? cols[col] : undefined;
    return c === undefined ? undefined : { cluster: doc.clusters[c] };
  }
  if (row < 0 || row >= rows.length) return undefined;
  const t = doc.templates[rows[row]];
  if (col < 0 || col >= cols.length) return { template: t };
  const c = cols[col];
  return { template: t, cluster: doc.clusters[c], code: doc.cells[rows[row] * doc.clusters.length + c] };
}

function describeAt(view, at) {
  if (!at) return '';
  if (!at.template) return `${at.cluster}: click for the cluster's page`;
  return at.cluster ? `${at.template.label} on ${at.cluster}: ${describe(at.code)}` : at.template.label;
}

// j/k and the arrows move the cursor row (kept in `state`), Enter opens its template.
function keyOnMatrix(view, event, detail, navigate) {
  const { state, rows, doc, size, scroller } = view;
  if (rows.length === 0) return;
  const by = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1 }[event.key];
  if (by !== undefined) {
    event.preventDefault();
    state.cursor = state.cursor === undefined ? 0 : Math.max(0, Math.min(rows.length - 1, state.cursor + by));
    const top = state.cursor * size.row;
    const inView = scroller.clientHeight - size.header - size.row;
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (top > scroller.scrollTop + inView) scroller.scrollTop = top - inView;
    const t = doc.templates[rows[state.cursor]];
    const n = doc.clusters.length;
    const cells = view.cols.map(
      (c) => `${doc.clusters[c]} ${describe(doc.cells[rows[state.cursor] * n + c])}`,
    );
    detail.textContent = `${t.label}: ${cells.join(', ')}`;
    view.canvas.dataset.cursor = t.label;
    drawMatrix(view);
  } else if (event.key === 'Enter' && state.cursor !== undefined) {
    event.preventDefault();
    navigate(`#/template/${encodeURIComponent(doc.templates[rows[state.cursor]].key)}`);
  }
}

function describe(code) {
  if (code === undefined) return '';
  const upper = code.toUpperCase();
  const text = cellMeaning[upper] ?? code;
  return code !== upper ? `${text} (not placed here, still reported by the agent)` : text;
}

function filterRows(doc, state) {
  const [labelKey, labelValue] = (state.label ?? '').split('=').map((s) => s.trim());
  const out = [];
  doc.templates.forEach((t, i) => {
    if (state.namespace && t.namespace !== state.namespace) return;
    if (state.kind && t.kind !== state.kind) return;
    if (labelKey) {
      if (!(labelKey in t.labels)) return;
      if (labelValue !== undefined && labelValue !== '' && t.labels[labelKey] !== labelValue) return;
    }
    out.push(i);
  });
  return out;
}

function drawMatrix(view) {
  const { canvas, scroller, doc, rows, cols, size, state } = view;
  const ratio = Number(canvas.dataset.ratio || 1);
  const ctx = canvas.getContext('2d');
  const width = canvas.width / ratio;
  const height = canvas.height / ratio;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const top = scroller.scrollTop;
  const first = Math.floor(top / size.row);
  const visible = Math.ceil((height - size.header) / size.row) + 1;
  const n = doc.clusters.length;
  const letters = size.cell >= 24;
  for (let r = first; r < Math.min(rows.length, first + visible); r++) {
    const y = size.header + r * size.row - top;
    const t = rows[r];
    if (r === state.cursor) {
      ctx.fillStyle = '#ddf4ff';
      ctx.fillRect(0, y, size.label + cols.length * size.cell, size.row);
    }
    ctx.fillStyle = '#24292f';
    ctx.textAlign = 'left';
    ctx.fillText(clip(ctx, doc.templates[t].label, size.label - 8), 4, y + size.row / 2);
    ctx.textAlign = 'center';
    cols.forEach((c, j) => {
      const code = doc.cells[t * n + c];
      const upper = code.toUpperCase();
      ctx.globalAlpha = code !== upper ? 0.35 : 1;
      ctx.fillStyle = colours[upper] ?? colours['.'];
      ctx.fillRect(size.label + j * size.cell + 1, y + 1, size.cell - 2, size.row - 2);
      if (letters && upper !== '.') {
        ctx.fillStyle = '#ffffff';
        ctx.fillText(upper, size.label + j * size.cell + size.cell / 2, y + size.row / 2 + 1);
      }
      ctx.globalAlpha = 1;
    });
  }
  if (state.cursor !== undefined && state.cursor >= first && state.cursor < first + visible) {
    ctx.strokeStyle = '#0969da';
    ctx.lineWidth = 2;
    ctx.strokeRect(
      1,
      size.header + state.cursor * size.row - top,
      size.label + cols.length * size.cell - 2,
      size.row,
    );
  }
  ctx.textAlign = 'left';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, size.header);
  ctx.fillStyle = '#24292f';
  cols.forEach((c, j) => {
    ctx.save();
    ctx.translate(size.label + j * size.cell + size.cell / 2 + 4, size.header - 4);
    ctx.rotate(-Math.PI / 3);
    ctx.fillText(clip(ctx, doc.clusters[c], size.header + 10), 0, 0);
    ctx.restore();
  });
}

function clip(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}
