/**
 * Container image references as Karmada's image overrider reads them (pkg/util/imageparser/parser.go):
 * validated by github.com/distribution/reference's grammar (Parse), then split by Karmada's own
 * rule, with no docker.io normalisation:
 *
 * | image                                   | hostname          | repository        | tag     | digest    |
 * |-----------------------------------------|-------------------|-------------------|---------|-----------|
 * | nginx                                   |                   | nginx             |         |           |
 * | library/nginx:1                         |                   | library/nginx     | 1       |           |
 * | localhost:5000/a/b:tag                  | localhost:5000    | a/b               | tag     |           |
 * | a.b/c@sha256:…                          | a.b               | c                 |         | sha256:…  |
 * | nginx:1.2@sha256:…                      |                   | nginx             | 1.2     | (dropped) |
 *
 * The first path segment is the hostname only if it contains '.' or ':' or is 'localhost'. When an
 * image has both a tag and a digest, only the tag is kept (Karmada's Parse prefers Tagged).
 */
export interface ImageRef {
  hostname: string;
  repository: string;
  tag: string;
  digest: string;
}

export type ImageParse = { ok: true; ref: ImageRef } | { ok: false; reason: string };

// distribution/reference regexp.go, written out: lower-case path components joined by separators,
// an optional host[:port] (or [ipv6]:port) before them, then :tag and @digest.
const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const REMOTE_NAME = `${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_NAME = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*`;
const HOST = `(?:${DOMAIN_NAME}|\\[(?:[a-fA-F0-9:]+)\\])`;
const DOMAIN_AND_PORT = `${HOST}(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN_AND_PORT}/)?${REMOTE_NAME}`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';

const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const ANCHORED_NAME = new RegExp(`^(?:(${DOMAIN_AND_PORT})/)?(${REMOTE_NAME})$`);
/** A whole tag (used to route Tag overrides between tag and digest, Karmada's SetTagOrDigest). */
export const ANCHORED_TAG = new RegExp(`^${TAG}$`);
/** A whole digest. */
export const ANCHORED_DIGEST = new RegExp(`^${DIGEST}$`);

const REPOSITORY_NAME_MAX = 255;
// github.com/opencontainers/go-digest: the algorithms Karmada registers, by encoded length.
const DIGEST_HEX_LENGTH: ReadonlyMap<string, number> = new Map([
  ['sha256', 64],
  ['sha384', 96],
  ['sha512', 128],
]);
const DIGEST_LIKE = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;

/** Returns the parts of an image reference, or why it is not a valid one (distribution/reference's messages). */
export function checkImage(image: string): ImageParse {
  const match = REFERENCE.exec(image);
  if (!match) return { ok: false, reason: invalidFormatReason(image) };
  const name = match[1] ?? '';
  const nameMatch = ANCHORED_NAME.exec(name);
  const path = nameMatch?.[2] ?? name;
  if (path.length > REPOSITORY_NAME_MAX) {
    return { ok: false, reason: `repository name must not be more than ${REPOSITORY_NAME_MAX} characters` };
  }
  const digest = match[3] ?? '';
  const digestProblem = digest ? checkDigest(digest) : undefined;
  if (digestProblem) return { ok: false, reason: digestProblem };
  const { hostname, repository } = splitHostname(name);
  const tag = match[2] ?? '';
  return { ok: true, ref: { hostname, repository, tag, digest: tag ? '' : digest } };
}

/** Returns the parts of an image reference, or undefined when it is not a valid one. */
export function parseImage(image: string): ImageRef | undefined {
  const parsed = checkImage(image);
  return parsed.ok ? parsed.ref : undefined;
}

/** Returns the image string for its parts: `[hostname/]repository[:tag | @digest]` (Karmada's Components.String). */
export function formatImage(ref: ImageRef): string {
  const full = ref.hostname ? `${ref.hostname}/${ref.repository}` : ref.repository;
  if (ref.tag) return `${full}:${ref.tag}`;
  if (ref.digest) return `${full}@${ref.digest}`;
  return full;
}

function invalidFormatReason(image: string): string {
  if (image === '') return 'repository name must have at least one component';
  if (REFERENCE.test(image.toLowerCase())) return 'repository name must be lowercase';
  return 'invalid reference format';
}

// Karmada's SplitHostname: no docker.io normalisation, unlike distribution's ParseNormalizedNamed.
function splitHostname(name: string): { hostname: string; repository: string } {
  const slash = name.indexOf('/');
  if (slash < 0) return { hostname: '', repository: name };
  const first = name.slice(0, slash);
  if (!/[.:]/.test(first) && first !== 'localhost') return { hostname: '', repository: name };
  return { hostname: first, repository: name.slice(slash + 1) };
}

// go-digest's Digest.Validate, with sha256, sha384 and sha512 available.
function checkDigest(digest: string): string | undefined {
  const colon = digest.indexOf(':');
  const algorithm = digest.slice(0, colon);
  const encoded = digest.slice(colon + 1);
  const length = DIGEST_HEX_LENGTH.get(algorithm);
  if (length === undefined) {
    return DIGEST_LIKE.test(digest) ? 'unsupported digest algorithm' : 'invalid checksum digest format';
  }
  if (encoded.length !== length) return 'invalid checksum digest length';
  return /^[a-f0-9]+$/.test(encoded) ? undefined : 'invalid checksum digest format';
}
