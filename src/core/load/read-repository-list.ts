// The FleetConfig's lists of repositories, `spec.statusRepositories` and `spec.renderRepositories`:
// each a list of `{name, url}`. A name is a DNS label (RFC 1123, as a cluster's label value can
// name it), unique in the list; a URL is an http(s) URL without credentials (a token goes in a
// file, never in the fleet repository) or a local path. Checking that the repository exists is
// the agent's and the hub's business, not the loader's.
import { quoteText } from '../model/quote-text.js';
import type { NamedRepository } from '../model/named-repository.js';
import { checkDns1123Label } from './name-rules.js';
import { childPath, readList, readMap, readRequiredString, type Issues } from './field-reader.js';

/**
 * Returns the listed repositories, undefined when absent; problems go to `issues`. `tokenFlag`
 * is the flag a message about credentials in a URL points to (`--status-token-file`).
 */
export function readRepositoryList(
  value: unknown,
  path: string,
  issues: Issues,
  tokenFlag: string,
): NamedRepository[] | undefined {
  const seen = new Set<string>();
  return readList(value, path, issues, (item, at) => {
    const map = readMap(item, at, issues);
    if (!map) return undefined;
    const name = readRequiredString(map['name'], childPath(at, 'name'), issues);
    const url = readRequiredString(map['url'], childPath(at, 'url'), issues);
    if (name === undefined || url === undefined) return undefined;
    const badName = checkDns1123Label(name);
    if (badName) issues.push({ path: childPath(at, 'name'), message: `${quoteText(name)}: ${badName}` });
    else if (seen.has(name))
      issues.push({
        path: childPath(at, 'name'),
        message: `${quoteText(name)}: named twice; names must be unique`,
      });
    const badUrl = checkRepositoryUrl(url, tokenFlag);
    if (badUrl)
      issues.push({ path: childPath(at, 'url'), message: `${quoteText(badUrl.shown)}: ${badUrl.why}` });
    seen.add(name);
    return badName || badUrl ? undefined : { name, url };
  });
}

// A scheme other than http(s) (ssh:, git:, file:) is not something gitfleet's Git client speaks.
// A URL with credentials is shown without them: the error must not carry the secret on.
function checkRepositoryUrl(url: string, tokenFlag: string): { shown: string; why: string } | undefined {
  const bad = (why: string) => ({ shown: url, why });
  if (url.trim() === '' || url !== url.trim())
    return bad('must be an http(s) URL or a local path, without surrounding spaces');
  if ([...url].some((c) => c < ' ' || c === '\u007f')) return bad('must not hold control characters');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return undefined;
  if (scheme !== 'http' && scheme !== 'https')
    return bad(`must be an http(s) URL or a local path, not ${scheme}:`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return bad('not a valid URL');
  }
  if (parsed.username === '' && parsed.password === '') return undefined;
  parsed.username = '';
  parsed.password = '';
  return { shown: parsed.href, why: `must not hold credentials (give ${tokenFlag} instead)` };
}
