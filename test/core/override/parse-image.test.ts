import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkImage,
  formatImage,
  parseImage,
  type ImageRef,
} from '../../../src/core/override/parse-image.js';

const DIGEST = 'sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c';

function ref(hostname: string, repository: string, tag = '', digest = ''): ImageRef {
  return { hostname, repository, tag, digest };
}

// Karmada's own parser cases (pkg/util/imageparser/parser_test.go) and more, each checked against
// Karmada's parser (distribution/reference + SplitHostname) run on the same input.
const valid: { name: string; given: string; want: ImageRef; roundTrips: boolean }[] = [
  { name: 'A bare name has only a repository.', given: 'pause', want: ref('', 'pause'), roundTrips: true },
  {
    name: 'nginx is not normalised to docker.io/library/nginx.',
    given: 'nginx',
    want: ref('', 'nginx'),
    roundTrips: true,
  },
  {
    name: 'A first segment without a dot, colon or localhost is part of the repository.',
    given: 'library/nginx:1',
    want: ref('', 'library/nginx', '1'),
    roundTrips: true,
  },
  {
    name: 'A sub-path repository keeps its tag.',
    given: 'subpath/imagename:v1.0.0',
    want: ref('', 'subpath/imagename', 'v1.0.0'),
    roundTrips: true,
  },
  {
    name: 'A first segment with a dot is the hostname.',
    given: 'fictional.registry.example/imagename:v1.0.0',
    want: ref('fictional.registry.example', 'imagename', 'v1.0.0'),
    roundTrips: true,
  },
  {
    name: 'A hostname keeps its port.',
    given: 'fictional.registry.example:10443/subpath/imagename:v1.0.0',
    want: ref('fictional.registry.example:10443', 'subpath/imagename', 'v1.0.0'),
    roundTrips: true,
  },
  {
    name: 'localhost with a port is the hostname.',
    given: 'localhost:5000/a/b:tag',
    want: ref('localhost:5000', 'a/b', 'tag'),
    roundTrips: true,
  },
  {
    name: 'localhost alone is the hostname.',
    given: 'localhost/x',
    want: ref('localhost', 'x'),
    roundTrips: true,
  },
  {
    name: 'A digest is kept when there is no tag.',
    given: `a.b/c@${DIGEST}`,
    want: ref('a.b', 'c', '', DIGEST),
    roundTrips: true,
  },
  {
    name: 'With both a tag and a digest only the tag is kept.',
    given: `nginx:1.2@${DIGEST}`,
    want: ref('', 'nginx', '1.2'),
    roundTrips: false,
  },
  {
    name: 'An IP address with a port is the hostname.',
    given: '10.10.10.10:10443/subpath/imagename',
    want: ref('10.10.10.10:10443', 'subpath/imagename'),
    roundTrips: true,
  },
  {
    name: 'An IPv6 hostname is accepted.',
    given: '[::1]:5000/x:1',
    want: ref('[::1]:5000', 'x', '1'),
    roundTrips: true,
  },
  {
    name: 'A hostname may have capitals.',
    given: 'Registry.IO/x',
    want: ref('Registry.IO', 'x'),
    roundTrips: true,
  },
  {
    name: 'name:port without a path is a repository and a tag.',
    given: 'host:5000',
    want: ref('', 'host', '5000'),
    roundTrips: true,
  },
  {
    name: 'Double underscores and runs of dashes are separators.',
    given: 'a__b/c--d:v1-2_3.4',
    want: ref('', 'a__b/c--d', 'v1-2_3.4'),
    roundTrips: true,
  },
  {
    name: 'A sha512 digest of the right length is accepted.',
    given: `x@sha512:${'a'.repeat(128)}`,
    want: ref('', 'x', '', `sha512:${'a'.repeat(128)}`),
    roundTrips: true,
  },
];

for (const { name, given, want, roundTrips } of valid) {
  test(name, () => {
    assert.deepEqual(parseImage(given), want);
    if (roundTrips) assert.equal(formatImage(want), given);
  });
}

const invalid: { name: string; given: string; want: string }[] = [
  {
    name: 'An empty image is rejected.',
    given: '',
    want: 'repository name must have at least one component',
  },
  {
    name: 'Capitals in the repository are rejected.',
    given: 'Nginx',
    want: 'repository name must be lowercase',
  },
  { name: 'An empty tag is rejected.', given: 'nginx:', want: 'invalid reference format' },
  { name: 'An empty path segment is rejected.', given: 'a//b', want: 'invalid reference format' },
  { name: 'A trailing slash is rejected.', given: 'a/b/', want: 'invalid reference format' },
  { name: 'A leading dash is rejected.', given: '-x', want: 'invalid reference format' },
  { name: 'Three underscores are not a separator.', given: 'a___b', want: 'invalid reference format' },
  {
    name: 'A tag longer than 128 characters is rejected.',
    given: `x:${'a'.repeat(129)}`,
    want: 'invalid reference format',
  },
  {
    name: 'A repository longer than 255 characters is rejected.',
    given: 'a'.repeat(256),
    want: 'repository name must not be more than 255 characters',
  },
  {
    name: 'A short digest is rejected by the grammar.',
    given: 'nginx@sha256:abc',
    want: 'invalid reference format',
  },
  {
    name: 'A sha256 digest of the wrong length is rejected.',
    given: `x@sha256:${'a'.repeat(63)}`,
    want: 'invalid checksum digest length',
  },
  {
    name: 'An upper-case digest is rejected.',
    given: `nginx@${DIGEST.toUpperCase().replace('SHA256', 'sha256')}`,
    want: 'invalid checksum digest format',
  },
  {
    name: 'An unknown digest algorithm is rejected.',
    given: `nginx@md5:${DIGEST.slice(7)}`,
    want: 'unsupported digest algorithm',
  },
  {
    name: 'A digest algorithm named like an object property is still unknown.',
    given: `nginx@constructor:${DIGEST.slice(7)}`,
    want: 'unsupported digest algorithm',
  },
];

for (const { name, given, want } of invalid) {
  test(name, () => {
    assert.deepEqual(checkImage(given), { ok: false, reason: want });
    assert.equal(parseImage(given), undefined);
  });
}

test('An image is formatted with its tag before its digest.', () => {
  assert.equal(
    formatImage(ref('gcr.io', 'kube-apiserver', 'v1.19.0', DIGEST)),
    'gcr.io/kube-apiserver:v1.19.0',
  );
  assert.equal(formatImage(ref('', 'kube-apiserver', '', DIGEST)), `kube-apiserver@${DIGEST}`);
});
