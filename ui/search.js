// The search box's query, as the templates and clusters pages filter by it: words separated by
// spaces, every one of which must match. A word with `=` is a label (`app=web`: that key with
// that value); any other word is looked for, in any case, in the name (`Deployment/shop/web`,
// a cluster's name) and in the labels (`key=value`), so `web` finds the template named web and
// the ones labelled app=web, and `prod` finds the clusters labelled env=prod.

/** Returns the query's words: `{ key, value }` for a label, `{ text }` (lower case) for the rest. */
export function parseQuery(query) {
  return (query ?? '')
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => {
      const at = w.indexOf('=');
      return at > 0 ? { key: w.slice(0, at), value: w.slice(at + 1) } : { text: w.toLowerCase() };
    });
}

/** Returns whether a name and its labels match every word of a parsed query. */
export function matchesQuery(words, name, labels = {}) {
  return words.every((w) => {
    if (w.key !== undefined)
      return Object.hasOwn(labels, w.key) && (w.value === '' || labels[w.key] === w.value);
    if (name.toLowerCase().includes(w.text)) return true;
    return Object.entries(labels).some(([k, v]) => `${k}=${v}`.toLowerCase().includes(w.text));
  });
}
