// The page's one DOM helper: elements are built from data with textContent only, never from
// HTML strings, so nothing read from the repository is ever parsed as markup.

/** Returns a new element with attributes (on* are listeners) and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'className') el.className = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Returns the JSON of a dashboard API document; throws with the server's message on an error. */
export async function getJson(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  if (res.status === 404) return undefined;
  const body = await res.json();
  if (!res.ok) throw new Error(body.error ?? `${path}: HTTP ${res.status}`);
  return body;
}

/** Returns the first 7 characters of a commit id, or a dash. */
export function short(oid) {
  return oid ? oid.slice(0, 7) : '–';
}
