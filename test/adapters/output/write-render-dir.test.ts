import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import {
  OutputDirError,
  writeRenderDir,
  type FileChange,
} from '../../../src/adapters/output/write-render-dir.js';

type Fleet = Record<string, Record<string, string>>;

function aRender(fleet: Fleet): Map<string, Map<string, string>> {
  return new Map(Object.entries(fleet).map(([cluster, files]) => [cluster, new Map(Object.entries(files))]));
}

const scratch = mkdtempSync(join(tmpdir(), 'gitfleet-write-render-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function anOutDir(): string {
  return join(mkdtempSync(join(scratch, 'case-')), 'out');
}

/** Every file under dir (relative path → text) and every directory, both sorted. */
function readTree(dir: string): { files: Record<string, string>; dirs: string[] } {
  const files: Record<string, string> = {};
  const dirs: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        dirs.push(relative(dir, p));
        walk(p);
      } else files[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return { files, dirs: dirs.sort() };
}

/** What the directory should hold after writing `fleet`: the marker and every cluster's files. */
function expectedFiles(fleet: Fleet): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [cluster, clusterFiles] of Object.entries(fleet)) {
    for (const [path, text] of Object.entries(clusterFiles)) files[`${cluster}/${path}`] = text;
  }
  return files;
}

function withoutMarker(files: Record<string, string>): Record<string, string> {
  const { ['.gitfleet-render']: marker, ...rest } = files;
  assert.ok(marker, 'the marker is written');
  return rest;
}

const longAgo = new Date('2001-01-01T00:00:00Z');

/** Sets every file's modification time to `longAgo`, so a rewrite shows. */
function ageFiles(dir: string, paths: readonly string[]): void {
  for (const path of paths) utimesSync(join(dir, path), longAgo, longAgo);
}

function rewritten(dir: string, paths: readonly string[]): string[] {
  return paths.filter((path) => statSync(join(dir, path)).mtimeMs !== longAgo.getTime());
}

// Three clusters of 40 namespaces × 3 kinds × 5 objects: 1,800 files in 360 directories.
function aLargeFleet(): Fleet {
  const fleet: Fleet = {};
  for (const cluster of ['member1', 'member2', 'member3']) {
    const files: Record<string, string> = {};
    for (let ns = 0; ns < 40; ns++) {
      for (const kind of ['ConfigMap', 'Deployment.apps', 'Service']) {
        for (let i = 0; i < 5; i++)
          files[`ns${ns}/${kind}/obj${i}.yaml`] = `${cluster} ns${ns} ${kind} ${i}\n`;
      }
    }
    fleet[cluster] = files;
  }
  return fleet;
}

test('a first write creates the directory, the marker and every file, and reports each as added in render order', async () => {
  const out = anOutDir();
  const fleet = { b: { 'ns/ConfigMap/x.yaml': 'x\n', 'top.yaml': 't\n' }, a: { 'n/Service/s.yaml': 's\n' } };
  const changes = await writeRenderDir(out, aRender(fleet));
  assert.deepEqual(changes, [
    { cluster: 'b', path: 'ns/ConfigMap/x.yaml', change: 'added' },
    { cluster: 'b', path: 'top.yaml', change: 'added' },
    { cluster: 'a', path: 'n/Service/s.yaml', change: 'added' },
  ]);
  assert.deepEqual(withoutMarker(readTree(out).files), expectedFiles(fleet));
});

test('an empty directory is taken over and marked', async () => {
  const out = anOutDir();
  mkdirSync(out);
  await writeRenderDir(out, aRender({ a: { 'f.yaml': 'f\n' } }));
  assert.ok(existsSync(join(out, '.gitfleet-render')));
});

test('a non-empty directory without the marker is refused and left as it was', async () => {
  const out = anOutDir();
  mkdirSync(join(out, 'a'), { recursive: true });
  writeFileSync(join(out, 'a', 'notes.txt'), 'keep me');
  await assert.rejects(
    writeRenderDir(out, aRender({ b: { 'f.yaml': 'f\n' } })),
    (error) => error instanceof OutputDirError && error.code === 'OutputDirNotOurs',
  );
  assert.deepEqual(readTree(out).files, { 'a/notes.txt': 'keep me' });
});

test('many files across many nested directories are written exactly, and a second write changes nothing', async () => {
  const out = anOutDir();
  const fleet = aLargeFleet();
  const first = await writeRenderDir(out, aRender(fleet));
  assert.equal(first.length, 1800);
  assert.deepEqual(
    first.map((c) => `${c.cluster}/${c.path}`),
    Object.keys(expectedFiles(fleet)),
  );
  assert.deepEqual(withoutMarker(readTree(out).files), expectedFiles(fleet));
  const paths = Object.keys(expectedFiles(fleet));
  ageFiles(out, paths);
  assert.deepEqual(await writeRenderDir(out, aRender(fleet)), []);
  assert.deepEqual(rewritten(out, paths), [], 'unchanged files are not rewritten');
});

test('a change in the middle rewrites only the files that changed and reports them in render order', async () => {
  const out = anOutDir();
  const fleet = aLargeFleet();
  await writeRenderDir(out, aRender(fleet));
  const paths = Object.keys(expectedFiles(fleet));
  ageFiles(out, paths);
  const next = structuredClone(fleet);
  next.member2!['ns20/Service/obj2.yaml'] = 'edited\n';
  next.member2!['ns7/ConfigMap/obj1.yaml'] = 'edited too\n';
  next.member2!['ns20/Secret/new.yaml'] = 'new\n';
  delete next.member2!['ns21/Service/obj0.yaml'];
  const changes = await writeRenderDir(out, aRender(next));
  assert.deepEqual(changes, [
    { cluster: 'member2', path: 'ns7/ConfigMap/obj1.yaml', change: 'changed' },
    { cluster: 'member2', path: 'ns20/Service/obj2.yaml', change: 'changed' },
    { cluster: 'member2', path: 'ns20/Secret/new.yaml', change: 'added' },
    { cluster: 'member2', path: 'ns21/Service/obj0.yaml', change: 'removed' },
  ]);
  assert.deepEqual(withoutMarker(readTree(out).files), expectedFiles(next));
  assert.deepEqual(rewritten(out, Object.keys(expectedFiles(next))), [
    'member2/ns7/ConfigMap/obj1.yaml',
    'member2/ns20/Service/obj2.yaml',
    'member2/ns20/Secret/new.yaml',
  ]);
});

test('removed files are deleted and the directories they leave empty are pruned, up to the cluster directory', async () => {
  const out = anOutDir();
  await writeRenderDir(
    out,
    aRender({
      a: {
        'gone/deep/Kind/x.yaml': 'x\n',
        'gone/deep/Kind/y.yaml': 'y\n',
        'gone/other/z.yaml': 'z\n',
        'half/Kind/keep.yaml': 'k\n',
        'half/Kind/drop.yaml': 'd\n',
        'half/Drop/drop.yaml': 'd\n',
      },
      b: { 'only.yaml': 'o\n' },
    }),
  );
  const changes = await writeRenderDir(out, aRender({ a: { 'half/Kind/keep.yaml': 'k\n' }, b: {} }));
  assert.deepEqual(changes, [
    { cluster: 'a', path: 'gone/deep/Kind/x.yaml', change: 'removed' },
    { cluster: 'a', path: 'gone/deep/Kind/y.yaml', change: 'removed' },
    { cluster: 'a', path: 'gone/other/z.yaml', change: 'removed' },
    { cluster: 'a', path: 'half/Drop/drop.yaml', change: 'removed' },
    { cluster: 'a', path: 'half/Kind/drop.yaml', change: 'removed' },
    { cluster: 'b', path: 'only.yaml', change: 'removed' },
  ]);
  assert.deepEqual(readTree(out), {
    files: {
      '.gitfleet-render': readFileSync(join(out, '.gitfleet-render'), 'utf8'),
      'a/half/Kind/keep.yaml': 'k\n',
    },
    dirs: ['a', 'a/half', 'a/half/Kind', 'b'],
  });
});

test('removed files are reported in the order of a walk of the directory, names sorted at each level', async () => {
  const out = anOutDir();
  await writeRenderDir(
    out,
    aRender({ a: { 'a-b.yaml': '1\n', 'a/x.yaml': '2\n', 'B.yaml': '3\n', keep: '4\n' } }),
  );
  const changes: FileChange[] = await writeRenderDir(out, aRender({ a: { keep: '4\n' } }));
  assert.deepEqual(
    changes.map((c) => c.path),
    ['B.yaml', 'a/x.yaml', 'a-b.yaml'],
  );
});

test('files under a cluster directory’s .gitfleet/ are kept though nothing renders them', async () => {
  const out = anOutDir();
  await writeRenderDir(out, aRender({ a: { 'f.yaml': 'f\n' } }));
  mkdirSync(join(out, 'a', '.gitfleet'));
  writeFileSync(join(out, 'a', '.gitfleet', 'state'), 's');
  assert.deepEqual(await writeRenderDir(out, aRender({ a: {} })), [
    { cluster: 'a', path: 'f.yaml', change: 'removed' },
  ]);
  assert.equal(readFileSync(join(out, 'a', '.gitfleet', 'state'), 'utf8'), 's');
});

test('cluster directories no longer rendered are removed, their files reported after the rendered clusters', async () => {
  const out = anOutDir();
  await writeRenderDir(
    out,
    aRender({
      old2: { 'n/K/b.yaml': 'b\n', 'a.yaml': 'a\n' },
      kept: { 'k.yaml': 'k\n' },
      old1: { 'x.yaml': 'x\n' },
    }),
  );
  const changes = await writeRenderDir(
    out,
    aRender({ kept: { 'k.yaml': 'k\n' }, fresh: { 'f.yaml': 'f\n' } }),
  );
  assert.deepEqual(changes, [
    { cluster: 'fresh', path: 'f.yaml', change: 'added' },
    { cluster: 'old1', path: 'x.yaml', change: 'removed' },
    { cluster: 'old2', path: 'a.yaml', change: 'removed' },
    { cluster: 'old2', path: 'n/K/b.yaml', change: 'removed' },
  ]);
  assert.deepEqual(readTree(out).dirs, ['fresh', 'kept']);
});

test('a file edited by hand is written again and reported as changed', async () => {
  const out = anOutDir();
  const fleet = { a: { 'n/K/x.yaml': 'x\n', 'n/K/y.yaml': 'y\n' } };
  await writeRenderDir(out, aRender(fleet));
  writeFileSync(join(out, 'a/n/K/x.yaml'), 'edited by hand');
  assert.deepEqual(await writeRenderDir(out, aRender(fleet)), [
    { cluster: 'a', path: 'n/K/x.yaml', change: 'changed' },
  ]);
  assert.equal(readFileSync(join(out, 'a/n/K/x.yaml'), 'utf8'), 'x\n');
});

test('files whose directory was removed by hand are written again and reported as added', async () => {
  const out = anOutDir();
  const fleet = { a: { 'n/K/x.yaml': 'x\n', 'n/L/y.yaml': 'y\n', 'm/z.yaml': 'z\n' } };
  await writeRenderDir(out, aRender(fleet));
  rmSync(join(out, 'a/n'), { recursive: true });
  assert.deepEqual(await writeRenderDir(out, aRender(fleet)), [
    { cluster: 'a', path: 'n/K/x.yaml', change: 'added' },
    { cluster: 'a', path: 'n/L/y.yaml', change: 'added' },
  ]);
  assert.deepEqual(withoutMarker(readTree(out).files), expectedFiles(fleet));
});

test('two files whose paths differ only in case are refused before anything is written', async () => {
  const out = anOutDir();
  await assert.rejects(
    writeRenderDir(
      out,
      aRender({
        a: {
          'n/Role.rbac.authorization.k8s.io/Admin.yaml': 'x\n',
          'n/Role.rbac.authorization.k8s.io/admin.yaml': 'y\n',
        },
      }),
    ),
    (error) =>
      error instanceof OutputDirError &&
      error.code === 'UnsafeOutputPath' &&
      /a\/n\/Role\.rbac\.authorization\.k8s\.io\/Admin\.yaml and a\/n\/Role\.rbac\.authorization\.k8s\.io\/admin\.yaml differ only in case/.test(
        error.message,
      ),
  );
  assert.equal(existsSync(out), false, 'not even the output directory is made');
});

test('paths that differ only in the case of a directory are refused too', async () => {
  const out = anOutDir();
  await assert.rejects(
    writeRenderDir(
      out,
      aRender({
        a: { 'n/Foo.x.io/a.yaml': 'x\n' },
        b: { 'n/Foo.x.io/a.yaml': 'x\n', 'n/foo.x.io/b.yaml': 'y\n' },
      }),
    ),
    /b\/n\/Foo\.x\.io\/a\.yaml and b\/n\/foo\.x\.io\/b\.yaml differ only in case/,
  );
  assert.equal(existsSync(out), false);
});

test('a file name longer than 255 bytes is refused before anything is written', async () => {
  const out = anOutDir();
  const name = `${'a'.repeat(253)}.yaml`;
  await assert.rejects(
    writeRenderDir(out, aRender({ a: { 'n/K/ok.yaml': 'x\n', [`n/K/${name}`]: 'y\n' } })),
    (error) =>
      error instanceof OutputDirError &&
      error.code === 'UnsafeOutputPath' &&
      error.message.startsWith(`a/n/K/${name}: `) &&
      /258 bytes/.test(error.message) &&
      /255/.test(error.message),
  );
  assert.equal(existsSync(out), false);
});

test('the 255-byte limit counts UTF-8 bytes, not characters', async () => {
  const out = anOutDir();
  const name = `${'é'.repeat(126)}.yaml`; // 126 characters of 2 bytes each, 257 bytes with the suffix
  await assert.rejects(writeRenderDir(out, aRender({ a: { [`n/K/${name}`]: 'y\n' } })), /257 bytes/);
  assert.equal(existsSync(out), false);
});

test('a file name of exactly 255 bytes is written', async () => {
  const out = anOutDir();
  const path = `n/K/${'a'.repeat(250)}.yaml`;
  assert.deepEqual(await writeRenderDir(out, aRender({ a: { [path]: 'x\n' } })), [
    { cluster: 'a', path, change: 'added' },
  ]);
});
