import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMirrored, localRefOf, mirrorLayout } from '../../../src/adapters/remote/mirror-layout.js';
import { mirrorDirFor } from '../../../src/adapters/remote/open-mirror.js';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';

const layouts: {
  name: string;
  given: { sourceRef: string; branchPrefix: string };
  want: ReturnType<typeof mirrorLayout> | 'InvalidOption';
}[] = [
  {
    name: 'A short branch name becomes a full ref and the prefix gains its slash.',
    given: { sourceRef: 'main', branchPrefix: 'gitfleet' },
    want: { sourceRef: 'refs/heads/main', branchPrefix: 'gitfleet/' },
  },
  {
    name: 'A full branch name and a prefix with its slash are kept as they are.',
    given: { sourceRef: 'refs/heads/release/1', branchPrefix: 'fleet/out/' },
    want: { sourceRef: 'refs/heads/release/1', branchPrefix: 'fleet/out/' },
  },
  {
    name: 'A tag cannot be the source.',
    given: { sourceRef: 'refs/tags/v1', branchPrefix: 'gitfleet/' },
    want: 'InvalidOption',
  },
  {
    name: 'An empty prefix would claim every branch.',
    given: { sourceRef: 'main', branchPrefix: '' },
    want: 'InvalidOption',
  },
  {
    name: 'A prefix git would refuse is refused.',
    given: { sourceRef: 'main', branchPrefix: 'bad..prefix/' },
    want: 'InvalidOption',
  },
];

for (const { name, given, want } of layouts) {
  test(name, () => {
    if (want === 'InvalidOption') {
      assert.throws(
        () => mirrorLayout(given),
        (e: unknown) => e instanceof RemoteError && e.code === want,
      );
    } else assert.deepEqual(mirrorLayout(given), want);
  });
}

const layout = mirrorLayout({ sourceRef: 'main', branchPrefix: 'gitfleet/' });
const tracking: { name: string; given: string; want: string | null }[] = [
  {
    name: 'The tracking ref of the source maps to the source branch.',
    given: 'refs/remotes/origin/main',
    want: 'refs/heads/main',
  },
  {
    name: 'The tracking ref of a prefixed branch maps to that branch.',
    given: 'refs/remotes/origin/gitfleet/clusters/a',
    want: 'refs/heads/gitfleet/clusters/a',
  },
  { name: 'Another branch is tracked but not mirrored.', given: 'refs/remotes/origin/feature', want: null },
  {
    name: 'A branch that only starts like the prefix is not mirrored.',
    given: 'refs/remotes/origin/gitfleetx/a',
    want: null,
  },
  { name: "The remote's HEAD is not mirrored.", given: 'refs/remotes/origin/HEAD', want: null },
];

for (const { name, given, want } of tracking) {
  test(name, () => assert.equal(localRefOf(layout, given), want));
}

test('Only the source branch and prefixed branches count as mirrored.', () => {
  assert.deepEqual(
    ['refs/heads/main', 'refs/heads/gitfleet/bindings', 'refs/heads/mainline', 'refs/tags/gitfleet/x'].map(
      (r) => isMirrored(layout, r),
    ),
    [true, true, false, false],
  );
});

test('Mirror directories are named after the host and path, differ per URL and stay inside the cache.', () => {
  const a = mirrorDirFor('/cache', 'https://github.com/org/fleet.git');
  const b = mirrorDirFor('/cache', 'https://github.com/org/fleet2.git');
  const c = mirrorDirFor('/cache', 'https://host/../../etc');
  assert.match(a, /^\/cache\/github\.com-org-fleet-[0-9a-f]{16}\.git$/);
  assert.notEqual(a, b);
  assert.ok(c.startsWith('/cache/') && !c.slice('/cache/'.length).includes('/'), c);
});
