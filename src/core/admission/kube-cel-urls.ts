// Kubernetes' URL library (library/urls.go): url(), isURL() and the accessors, over WHATWG URL
// parsing. Kubernetes (Go's url.ParseRequestURI) takes absolute URLs and absolute paths; so does
// this, a path resolved against no host.
import { celFunc, celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { opaqueOf, opaqueType, opaqueValue } from './opaque-value.js';

const { STRING, BOOL } = CelScalar;

/** url, isURL, getScheme, getHost, getHostname, getPort, getEscapedPath, getQuery. */
export const kubeCelUrls: readonly CelFunc[] = [
  celFunc('url', [STRING], opaqueType, (text) => {
    if (!isUrl(text)) throw new Error(`URL parse error during conversion from string: ${text}`);
    return opaqueValue('URL', text);
  }),
  celFunc('isURL', [STRING], BOOL, (text) => isUrl(text)),
  accessor('getScheme', (u) => (u ? u.protocol.replace(/:$/, '') : '')),
  accessor('getHost', (u) => (u ? u.host : '')),
  accessor('getHostname', (u) => (u ? u.hostname.replace(/^\[(.*)\]$/, '$1') : '')),
  accessor('getPort', (u) => (u ? u.port : '')),
  accessor('getEscapedPath', (u, text) => (u ? u.pathname : text.split(/[?#]/)[0]!)),
  celMethod('getQuery', opaqueType, [], opaqueType, function () {
    const u = parsed(opaqueOf('URL', this));
    const query = new Map<string, string[]>();
    for (const [key, value] of u?.searchParams ?? []) query.set(key, [...(query.get(key) ?? []), value]);
    return query as never;
  }),
];

function accessor(name: string, get: (u: URL | undefined, text: string) => string): CelFunc {
  return celMethod(name, opaqueType, [], STRING, function () {
    const text = opaqueOf('URL', this);
    return get(parsed(text), text);
  });
}

function isUrl(text: string): boolean {
  if (text.startsWith('/')) return !/\s/.test(text);
  return parsed(text) !== undefined;
}

function parsed(text: string): URL | undefined {
  if (text.startsWith('/')) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
