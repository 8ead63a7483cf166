// The templates × clusters matrix, drawn on a canvas: only the rows in view are drawn, so 2,000
// templates × 50 clusters costs what 40 rows cost, and a filter is one pass over an array of
// row numbers. Each cell is one character of the server's `cells` string (see
// src/loops/ui/dashboard-view.ts): the health letter, upper case where the template is placed,
// lower case where it is not placed but the agent still reports it, X for a cluster whose
// status does not read.
import { h } from './dom.js';

const LABEL_W = 340;
const CELL_W = 18;
const ROW_H = 18;
const HEADER_H = 120;

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

/** Returns the matrix page for a matrix document; `state` keeps the filters across live updates. */
export function matrixPage(doc, state, navigate) {
  const namespaces = [...new Set(doc.templates.map((t) => t.namespace))].sort();
  const kinds = [...new Set(doc.templates.map((t) => t.kind))].sort();
  const count = h('span', { id: 'matrix-count' });
  const detail = h('div', { id: 'matrix-detail' }, 'point at a cell; click it for the template');
  const canvas = h('canvas', {
    id: 'matrix',
    'data-label-width': LABEL_W,
    'data-cell-width': CELL_W,
    'data-row-height': ROW_H,
    'data-header-height': HEADER_H,
  });
  const spacer = h('div', { className: 'matrix-spacer' });
  const scroller = h('div', { id: 'matrix-scroll' }, canvas, spacer);
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
  const tools = h(
    'div',
    { className: 'tools' },
    select('filter-namespace', 'namespace', namespaces, 'namespace'),
    select('filter-kind', 'kind', kinds, 'kind'),
    input('filter-label', 'label', 'label', 'app=web'),
    input('filter-cluster', 'cluster', 'cluster', 'name contains'),
    count,
  );
  const legend = h(
    'div',
    { className: 'legend' },
    Object.entries(cellMeaning).map(([code, text]) =>
      h('span', {}, h('i', { className: `swatch c-${code === '.' ? 'none' : code}` }), text),
    ),
    h('span', {}, 'faded: not placed, still reported'),
  );
  let rows = [];
  let cols = [];
  const apply = () => {
    rows = filterRows(doc, state);
    cols = doc.clusters
      .map((c, i) => i)
      .filter((i) => !state.cluster || doc.clusters[i].includes(state.cluster));
    count.textContent = `${rows.length} of ${doc.templates.length} templates × ${cols.length} of ${doc.clusters.length} clusters`;
    scroller.dataset.rows = String(rows.length);
    scroller.dataset.cols = String(cols.length);
    spacer.style.height = `${Math.max(0, HEADER_H + rows.length * ROW_H - (parseFloat(canvas.style.height) || 0))}px`;
    spacer.style.width = `${LABEL_W + cols.length * CELL_W}px`;
    draw();
  };
  const update = (key, value) => {
    state[key] = value;
    apply();
    performance.mark('matrix-filtered');
  };
  const draw = () => drawMatrix(canvas, scroller, doc, rows, cols);
  scroller.addEventListener('scroll', () => requestAnimationFrame(draw));
  const cellAt = (event) => {
    const box = canvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const row = Math.floor((y - HEADER_H + scroller.scrollTop) / ROW_H);
    const col = Math.floor((x - LABEL_W) / CELL_W);
    if (y < HEADER_H || row < 0 || row >= rows.length) return undefined;
    const t = doc.templates[rows[row]];
    if (col < 0 || col >= cols.length) return { template: t };
    const c = cols[col];
    return { template: t, cluster: doc.clusters[c], code: doc.cells[rows[row] * doc.clusters.length + c] };
  };
  canvas.addEventListener('mousemove', (event) => {
    const at = cellAt(event);
    detail.textContent = !at
      ? ''
      : at.cluster
        ? `${at.template.label} on ${at.cluster}: ${describe(at.code)}`
        : at.template.label;
  });
  canvas.addEventListener('click', (event) => {
    const at = cellAt(event);
    if (at) navigate(`#/template/${encodeURIComponent(at.template.key)}`);
  });
  const page = h(
    'section',
    { id: 'matrix-page' },
    h('h1', {}, 'Templates × clusters'),
    tools,
    legend,
    detail,
    scroller,
  );
  // Sized once the page is in the document, so the canvas fills the space it has.
  requestAnimationFrame(() => {
    const width = Math.min(scroller.clientWidth, LABEL_W + doc.clusters.length * CELL_W + HEADER_H);
    const height = Math.max(200, scroller.clientHeight);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = width * ratio;
    canvas.height = height * ratio;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    canvas.dataset.ratio = String(ratio);
    apply();
    performance.mark('matrix-drawn');
    page.dataset.drawn = 'true';
  });
  return page;
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

function drawMatrix(canvas, scroller, doc, rows, cols) {
  const ratio = Number(canvas.dataset.ratio || 1);
  const ctx = canvas.getContext('2d');
  const width = canvas.width / ratio;
  const height = canvas.height / ratio;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const top = scroller.scrollTop;
  const first = Math.floor(top / ROW_H);
  const visible = Math.ceil((height - HEADER_H) / ROW_H) + 1;
  const n = doc.clusters.length;
  for (let r = first; r < Math.min(rows.length, first + visible); r++) {
    const y = HEADER_H + r * ROW_H - top;
    const t = rows[r];
    ctx.fillStyle = '#24292f';
    ctx.fillText(clip(ctx, doc.templates[t].label, LABEL_W - 8), 4, y + ROW_H / 2);
    cols.forEach((c, j) => {
      const code = doc.cells[t * n + c];
      const upper = code.toUpperCase();
      ctx.globalAlpha = code !== upper ? 0.35 : 1;
      ctx.fillStyle = colours[upper] ?? colours['.'];
      ctx.fillRect(LABEL_W + j * CELL_W + 1, y + 1, CELL_W - 2, ROW_H - 2);
      ctx.globalAlpha = 1;
    });
  }
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, HEADER_H);
  ctx.fillStyle = '#24292f';
  cols.forEach((c, j) => {
    ctx.save();
    ctx.translate(LABEL_W + j * CELL_W + CELL_W / 2 + 4, HEADER_H - 4);
    ctx.rotate(-Math.PI / 3);
    ctx.fillText(clip(ctx, doc.clusters[c], HEADER_H + 10), 0, 0);
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
