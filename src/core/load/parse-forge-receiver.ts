// A github, gitlab or gitea receiver of a NotificationPolicy (docs/notifications.md#commit-statuses):
// each event routed to it sets a commit status on the event's source commit.
//
// | field                 | rule                                                                   |
// |-----------------------|------------------------------------------------------------------------|
// | repository            | required: `owner/name` (GitLab: `group/…/project`)                     |
// | url                   | the forge's API base, http(s); default https://api.github.com (github), https://gitlab.com/api/v4 (gitlab); required for gitea |
// | tokenFile / secretRef | exactly one: the API token, a file of --notifications-secrets-dir or a Secret's key |
// | context               | the first part of the contexts set (default `gitfleet`): letters, digits, `-_./` |
// | urlFile, hmacKeyFile  | refused: the API's URL is no secret, and a status is not signed         |
import type { ForgeReceiverSpec, ForgeReceiverType, SecretSource } from '../model/notification-policy.js';
import { childPath, isAbsent, readRequiredString, readString, type Issues } from './field-reader.js';
import { readSecretFile, readSecretRef } from './read-secret-source.js';

/** The fields only a forge receiver has. */
export const forgeFields = ['repository', 'tokenFile', 'context'] as const;

const defaultApiUrls: Record<ForgeReceiverType, string | undefined> = {
  github: 'https://api.github.com',
  gitlab: 'https://gitlab.com/api/v4',
  gitea: undefined,
};

/** Returns the forge receiver's fields but its name, or undefined with the issues found. */
export function readForgeReceiver(
  map: Record<string, unknown>,
  path: string,
  type: ForgeReceiverType,
  issues: Issues,
): Omit<ForgeReceiverSpec, 'name'> | undefined {
  const before = issues.length;
  for (const field of ['urlFile', 'hmacKeyFile'])
    if (!isAbsent(map[field]))
      issues.push({
        path: childPath(path, field),
        message: `a ${type} receiver has none: its API URL is no secret (url), its token is tokenFile or secretRef`,
      });
  const repository = readRequiredString(map['repository'], childPath(path, 'repository'), issues);
  if (repository !== undefined && !/^[^/\s]+(\/[^/\s]+)+$/.test(repository))
    issues.push({ path: childPath(path, 'repository'), message: `"${repository}": must be owner/name` });
  const apiUrl = readApiUrl(map['url'], childPath(path, 'url'), type, issues);
  const token = readToken(map, path, issues);
  const context = readString(map['context'], childPath(path, 'context'), issues) ?? 'gitfleet';
  if (!/^[A-Za-z0-9][-_./A-Za-z0-9]{0,59}$/.test(context))
    issues.push({
      path: childPath(path, 'context'),
      message: `"${context}": letters, digits and -_./, at most 60 characters`,
    });
  if (issues.length > before || repository === undefined || apiUrl === undefined || token === undefined)
    return undefined;
  return { type, repository, apiUrl, token, context };
}

function readApiUrl(
  value: unknown,
  path: string,
  type: ForgeReceiverType,
  issues: Issues,
): string | undefined {
  if (isAbsent(value)) {
    const url = defaultApiUrls[type];
    if (url === undefined)
      issues.push({
        path,
        message: `is required for a ${type} receiver: its API base (https://HOST/api/v1)`,
      });
    return url;
  }
  const url = readString(value, path, issues);
  if (url === undefined) return undefined;
  if (!/^https?:\/\/[^\s/]+\S*$/.test(url)) {
    issues.push({ path, message: 'must be an http:// or https:// URL' });
    return undefined;
  }
  return url.replace(/\/+$/, '');
}

function readToken(map: Record<string, unknown>, path: string, issues: Issues): SecretSource | undefined {
  const given = (['tokenFile', 'secretRef'] as const).filter((k) => !isAbsent(map[k]));
  if (given.length !== 1) {
    const message =
      given.length === 0 ? 'is required: the API token' : 'give one of them, not tokenFile and secretRef';
    issues.push({ path: `${path}.tokenFile|secretRef`, message });
    return undefined;
  }
  if (given[0] === 'secretRef') return readSecretRef(map['secretRef'], childPath(path, 'secretRef'), issues);
  const file = readSecretFile(map['tokenFile'], childPath(path, 'tokenFile'), issues);
  return file === undefined ? undefined : { type: 'file', file };
}
