// Finding things on the dashboard without the mouse, and reading it on a laptop: the search box
// (`/`, by name and by label key=value), j/k and the arrows through the rows with a visible
// focus, Enter to open, Esc to go back, `g` shortcuts and the help, the matrix's row cursor; then
// every page at 1366×768 and 1920×1080: dates on one line with their RFC 3339 time on hover,
// nothing wider than the window, and a small fleet's matrix sized to its rows rather than a
// white screen. Every key is a real key press in Chromium. Screenshots go to
// test-output/dashboard-keys/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { renderedExample, writeFleetStatus } from './dashboard-fixture.js';
import { skipReason } from './launch-chromium.js';
import { assertEveryPageReads, openDashboard, textsOf, type DashboardSession } from './dashboard-session.js';

interface Item {
  label: string;
  key: string;
  labels: Record<string, string>;
}

let s: DashboardSession;

before(async () => {
  if (skipReason) return;
  const repo = renderedExample();
  writeFleetStatus(repo);
  s = await openDashboard(repo.path, 'dashboard-keys');
});

after(async () => {
  if (skipReason) return;
  assert.equal(await s?.close(), 0);
  removeFleetRepos();
  removeTempDirs();
});

// The browser-side reads are strings: this project compiles without the DOM's types.
const active = () =>
  s.page.evaluate(`(() => {
    const el = document.activeElement;
    return { id: el?.id ?? '', href: el?.dataset?.href ?? '', outline: el ? getComputedStyle(el).outlineStyle : '' };
  })()`) as Promise<{ id: string; href: string; outline: string }>;
const queryIs = (q: string) =>
  s.page.waitForFunction(
    (want) =>
      new URL((globalThis as unknown as { location: { href: string } }).location.href).searchParams.get(
        'q',
      ) === want,
    q,
  );
const rowLabels = () =>
  s.page
    .locator('#templates tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-template')));

test('/ focuses the search, which filters templates by name and by label', { skip: skipReason }, async () => {
  await s.open('#/templates', '#templates');
  const all = (await s.api<{ templates: Item[] }>('templates')).templates;
  await s.page.keyboard.press('/');
  assert.equal((await active()).id, 'search');
  await s.page.keyboard.type('web');
  await s.page.waitForSelector('#templates-page[data-query="web"]');
  await queryIs('web');
  const byName = await rowLabels();
  const expected = all.filter(
    (t) =>
      t.label.toLowerCase().includes('web') ||
      Object.entries(t.labels).some(([k, v]) => `${k}=${v}`.includes('web')),
  );
  assert.deepEqual(
    byName,
    expected.map((t) => t.label),
  );
  assert.ok(!byName.includes('Namespace/ml'));
  await s.page.fill('#search', 'app.kubernetes.io/name=web');
  await s.page.waitForSelector('#templates-page[data-query="app.kubernetes.io/name=web"]');
  const byLabel = await rowLabels();
  assert.deepEqual(
    byLabel,
    all.filter((t) => t.labels['app.kubernetes.io/name'] === 'web').map((t) => t.label),
  );
  await s.shoot('search-label');
});

test(
  'j/k and the arrows move a visible focus through the rows, Enter opens, Esc comes back',
  { skip: skipReason },
  async () => {
    await s.page.fill('#search', 'web');
    await s.page.waitForSelector('#templates-page[data-query="web"]');
    const hrefs = await s.page
      .locator('#templates tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-href')));
    assert.ok(hrefs.length >= 3, 'a few rows to move through');
    await s.page.keyboard.press('ArrowDown');
    assert.equal((await active()).href, hrefs[0], 'ArrowDown from the search box selects the first row');
    await s.page.keyboard.press('j');
    await s.page.keyboard.press('j');
    assert.equal((await active()).href, hrefs[2]);
    await s.page.keyboard.press('k');
    const selected = await active();
    assert.equal(selected.href, hrefs[1]);
    assert.notEqual(selected.outline, 'none', 'the selected row shows its focus');
    await s.shoot('keys-selected');
    await s.page.keyboard.press('Enter');
    await s.page.waitForSelector(`body[data-route="${hrefs[1]}"] #template-page`);
    await s.page.keyboard.press('Escape');
    await s.page.waitForSelector('body[data-route="#/templates"] #templates');
    assert.equal(await s.page.inputValue('#search'), 'web', 'the search is still there');
    assert.equal((await textsOf(s.page, '#templates tbody tr')).length, hrefs.length);
    // g c: the clusters page, which the same search box filters by label.
    await s.page.keyboard.press('g');
    await s.page.keyboard.press('c');
    await s.page.waitForSelector('body[data-route="#/clusters"] #clusters');
    await s.page.fill('#search', 'env=staging');
    await s.page.waitForSelector('#clusters[data-query="env=staging"]');
    assert.equal(await s.page.locator('#clusters tbody tr.nav').count(), 1);
    assert.equal(await s.page.getAttribute('#clusters tbody tr.nav', 'data-cluster'), 'gcp-eu-staging');
    await s.page.keyboard.press('Escape');
    await s.page.keyboard.press('?');
    assert.equal(await s.page.isVisible('#help'), true);
    await s.shoot('keys-help');
    await s.page.keyboard.press('Escape');
    assert.equal(await s.page.isVisible('#help'), false);
    await s.page.fill('#search', '');
  },
);

test(
  'in the matrix, j/k move a row cursor and Enter opens its template; a column name opens its cluster',
  { skip: skipReason },
  async () => {
    await s.open('#/matrix', '#matrix-page[data-drawn]');
    const { templates } = await s.api<{ templates: Item[] }>('matrix');
    await s.page.focus('#matrix');
    await s.page.keyboard.press('j');
    await s.page.keyboard.press('j');
    assert.equal(await s.page.getAttribute('#matrix', 'data-cursor'), templates[1]!.label);
    assert.match(
      (await s.page.textContent('#matrix-detail')) ?? '',
      new RegExp(`^${templates[1]!.label}: aws-eu-prod `),
    );
    await s.page.keyboard.press('Enter');
    await s.page.waitForSelector(
      `body[data-route="#/template/${encodeURIComponent(templates[1]!.key)}"] #template-page`,
    );
    // A column's name opens its cluster's page.
    await s.open('#/matrix', '#matrix-page[data-drawn]');
    const n = async (name: string) => Number(await s.page.getAttribute('#matrix', `data-${name}`));
    const header = {
      x: (await n('label-width')) + (await n('cell-width')) / 2,
      y: (await n('header-height')) - 8,
    };
    const { clusters } = await s.api<{ clusters: string[] }>('matrix');
    await s.page.locator('#matrix').hover({ position: header });
    assert.equal(await s.page.textContent('#matrix-detail'), `${clusters[0]}: click for the cluster's page`);
    await s.page.locator('#matrix').click({ position: header });
    await s.page.waitForSelector(`body[data-route="#/cluster/${clusters[0]}"] #cluster-page`);
  },
);

const pages: [string, string][] = [
  ['templates', '#templates'],
  ['clusters', '#clusters'],
  ['cluster/aws-eu-prod', '#cluster-page'],
  [`template/${encodeURIComponent('apps/Deployment/shop/web')}`, '#template-page'],
  ['matrix', '#matrix-page[data-drawn]'],
  ['rollouts', '#rollouts-page'],
  ['evictions', '#evictions-page'],
  ['commit/HEAD', '#commit-diff'],
];

test(
  'every page reads on a laptop: dates on one line with the RFC 3339 time on hover, nothing wider than the window',
  { skip: skipReason },
  async () => {
    await assertEveryPageReads(
      s,
      pages.map(([route, ready]) => [`#/${route}`, ready]),
    );
    // A cluster whose status branch does not read has a page that says so.
    await s.open('#/cluster/onprem-gpu', '#cluster-page');
    assert.match((await s.page.textContent('#cluster-unreadable')) ?? '', /cluster\.yaml is not YAML/);
    await s.shoot('cluster-unreadable');
  },
);

test(
  "a small fleet's matrix fills the width with its cells and is as tall as its rows",
  { skip: skipReason },
  async () => {
    await s.open('#/matrix', '#matrix-page[data-drawn]');
    const m = (await s.page.evaluate(`(() => {
    const canvas = document.getElementById('matrix');
    const scroller = document.getElementById('matrix-scroll');
    const n = (k) => Number(canvas.dataset[k]);
    return { cell: n('cellWidth'), row: n('rowHeight'), header: n('headerHeight'), rows: Number(scroller.dataset.rows), height: scroller.clientHeight };
  })()`)) as { cell: number; row: number; header: number; rows: number; height: number };
    assert.ok(m.cell > 18, `5 clusters get cells wider than the big fleet's 18 px (${m.cell})`);
    assert.ok(
      m.height <= m.header + m.rows * m.row + 4,
      `the box is as tall as its ${m.rows} rows (${m.height}px)`,
    );
  },
);
