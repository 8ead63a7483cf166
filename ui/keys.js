// Keyboard navigation, as in mail readers and GitHub: `/` focuses the search box, j/k (or the
// arrow keys) move through the rows of the page's lists, Enter opens the row, Esc leaves the
// search box or goes back, `g` then a letter goes to a page, `?` shows the keys. A selected row
// has the focus (rows have tabindex -1), so it is outlined where the browser shows focus, and a
// live update that draws the page again gives it back (app.js finds it by its href).

/** The `g` shortcuts: the letter and the page. */
export const goKeys = {
  t: '#/templates',
  c: '#/clusters',
  m: '#/matrix',
  r: '#/rollouts',
  e: '#/evictions',
  d: '#/commit/HEAD',
};

/** The keys the help lists, in its order. */
export const keyHelp = [
  ['/', 'search templates and clusters (name, or label key=value)'],
  ['j  ↓', 'next row'],
  ['k  ↑', 'previous row'],
  ['Enter', 'open the row'],
  ['Esc', 'leave the search box; else go back'],
  ['g t, g c, g m, g r, g e, g d', 'templates, clusters, matrix, rollouts, evictions, commit'],
  ['?', 'this help'],
];

/**
 * Starts listening; `page` is the element pages are drawn in, `search` the search box, `go`
 * navigates, `back` goes back (or up, on the first page seen), `help` is the help panel.
 */
export function listenKeys({ page, search, go, back, help }) {
  let pendingG = false;
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const typing = target instanceof HTMLElement && target.matches('input, select, textarea');
    if (typing) {
      if (event.key === 'Escape') target.blur();
      else if (target === search && (event.key === 'ArrowDown' || event.key === 'Enter')) {
        event.preventDefault();
        move(page, 1, true);
      }
      return;
    }
    if (pendingG) {
      pendingG = false;
      if (goKeys[event.key]) {
        event.preventDefault();
        go(goKeys[event.key]);
        return;
      }
    }
    switch (event.key) {
      case '/':
        event.preventDefault();
        search.focus();
        search.select();
        return;
      case 'j':
      case 'ArrowDown':
        if (move(page, 1)) event.preventDefault();
        return;
      case 'k':
      case 'ArrowUp':
        if (move(page, -1)) event.preventDefault();
        return;
      case 'Enter': {
        const row = target instanceof HTMLElement ? target.closest('[data-href]') : null;
        if (row && page.contains(row)) {
          event.preventDefault();
          go(row.dataset.href);
        }
        return;
      }
      case 'Escape':
        if (!help.hidden) help.hidden = true;
        else back();
        return;
      case 'g':
        pendingG = true;
        return;
      case '?':
        help.hidden = !help.hidden;
        return;
      default:
    }
  });
  // A click on a row (not on a link or button in it) opens it, as Enter does.
  page.addEventListener('click', (event) => {
    const row = event.target.closest('[data-href]');
    if (!row || event.target.closest('a, button, summary, input, select')) return;
    go(row.dataset.href);
  });
}

/** Moves the selection `by` rows (from the first with `fromStart`); returns whether there were rows. */
export function move(page, by, fromStart = false) {
  const rows = [...page.querySelectorAll('[data-href]')].filter((r) => r.offsetParent !== null);
  if (rows.length === 0) return false;
  const at = fromStart ? -1 : rows.indexOf(document.activeElement);
  const next = at < 0 ? (by > 0 ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, at + by));
  rows[next].focus({ preventScroll: true });
  rows[next].scrollIntoView({ block: 'nearest' });
  return true;
}
