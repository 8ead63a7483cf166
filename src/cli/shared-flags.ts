// Flags several commands take with the same meaning, declared once so their help and value
// names cannot drift apart.
import type { FlagSpec } from './command-line.js';
import { defaultMirrorCacheDirText } from './mirror-cache-dir.js';

/** `--repo PATH|URL` (hub, agent): the fleet repository, local or remote. */
export const repoFlag = {
  type: 'string',
  value: 'PATH|URL',
  required: true,
  help: 'the fleet repository: a local path (bare or not) or an http(s) URL',
} as const satisfies FlagSpec;

/** `--repo <path|url>` of the reading commands (status, ui): the fleet repository they show. */
export const readRepoFlag = {
  type: 'string',
  value: '<path|url>',
  required: true,
  help: 'the fleet repository: a local path or an http(s) URL',
} as const satisfies FlagSpec;

/** `--token-file FILE` (hub, agent, status): the token for a repository URL. */
export const tokenFileFlag = {
  type: 'string',
  value: 'FILE',
  help: 'for a URL: a file holding the token (else $GITFLEET_GIT_TOKEN)',
} as const satisfies FlagSpec;

/** `--cache-dir DIR` (hub, agent): where the mirror of a repository URL lives. */
export const cacheDirFlag = {
  type: 'string',
  value: 'DIR',
  help: `for a URL: where the mirror lives (default ${defaultMirrorCacheDirText})`,
} as const satisfies FlagSpec;

/** `--branch-prefix P` of the reading commands (log, status): defaults to the FleetConfig's. */
export const readBranchPrefixFlag = {
  type: 'string',
  value: 'P',
  help: "the prefix of the hub's branches (default: the FleetConfig's at HEAD)",
} as const satisfies FlagSpec;

/** The `<source>` argument of render and validate. */
export const sourcePositional = {
  name: '<source>',
  help: 'the fleet repo: a directory, a work tree or a bare repository',
} as const;

/** `--ref REF` of render and validate: a commit read instead of the files on disk. */
export const sourceRefFlag = {
  type: 'string',
  value: 'REF',
  help: 'read this commit (a branch, tag or commit id) instead of the files on disk',
} as const satisfies FlagSpec;

/** What `--help` of render and validate says about `<source>`. */
export const sourceArgumentNote =
  '<source> is a directory. With --ref (or when it is a bare repository) the fleet is read from ' +
  "that commit's git objects; otherwise from the files on disk.";
