// The FleetConfig's `spec.statusRepositories`: a list of `{name, url}`. A name is a DNS label
// (RFC 1123, as a cluster's label value can name it), unique in the list; a URL is an http(s)
// URL without credentials (a token goes in a file, never in the fleet repository) or a local
// path. Checking that the repository exists is the agent's and the hub's business, not the loader's.
import { quoteText } from '../model/quote-text.js';
import type { StatusRepository } from '../model/status-repository.js';
import { checkDns1123Label } from './name-rules.js';
import { childPath, readList, readMap, readRequiredString, type Issues } from './field-reader.js';

/** Returns the listed status repositories, undefined when absent; problems go to `issues`. */
export function readStatusRepositories(
  value: unknown,
  path: string,
  issues: Issues,
): StatusRepository[] | undefined {
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
    const badUrl = checkRepositoryUrl(url);
    if (badUrl) issues.push({ path: childPath(at, 'url'), message: `${quoteText(url)}: ${badUrl}` });
    seen.add(name);
    return badName || badUrl ? undefined : { name, url };
  });
}

// A scheme other than http(s) (ssh:, git:, file:) is not something gitfleet's Git client speaks.
function checkRepositoryUrl(url: string): string | undefined {
  if (url.trim() === '' || url !== url.trim())
    return 'must be an http(s) URL or a local path, without surrounding spaces';
  if ([...url].some((c) => c < ' ' || c === '\u007f')) return 'must not hold control characters';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return undefined;
  if (scheme !== 'http' && scheme !== 'https')
    return `must be an http(s) URL or a local path, not ${scheme}:`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (parsed.username !== '' || parsed.password !== '')
    return 'must not hold credentials (give the agent --status-token-file instead)';
  return undefined;
}
