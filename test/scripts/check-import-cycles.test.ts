// scripts/check-import-cycles.mjs, run as `npm run lint` runs it, on small trees written to a
// temporary directory: it must name the cycle and fail, and pass a tree without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../../..');
const script = join(repoRoot, 'scripts/check-import-cycles.mjs');

/** Returns the exit code and error output of the check on a tree of the given files. */
function checkTree(files: Record<string, string>): { status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-cycles-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = spawnSync(process.execPath, [script, dir], { cwd: repoRoot, encoding: 'utf8' });
    return { status: run.status, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `want` holds the file cycles, `wantFolders` the folder cycles (none when left out).
const cases: { name: string; files: Record<string, string>; want: string[]; wantFolders?: string[] }[] = [
  {
    name: 'a cycle of three files across folders, closed by a type-only import, is found',
    files: {
      'core/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'core/b.ts': "import { c } from '../loops/c.js';\nexport const b = c;\n",
      'loops/c.ts':
        "import type { A } from '../core/a.js';\nexport const c = 1;\nexport type A = typeof c;\n",
    },
    want: ['core/a.ts -> core/b.ts -> loops/c.ts -> core/a.ts'],
    wantFolders: ['core -> loops -> core'],
  },
  {
    name: 'a cycle closed by a re-export is found',
    files: {
      'x.ts': "export { y } from './y.js';\nexport const x = 1;\n",
      'y.ts': "import { x } from './x.js';\nexport const y = x;\n",
    },
    want: ['x.ts -> y.ts -> x.ts'],
  },
  {
    name: 'a cycle closed by import() in a type position is found',
    files: {
      'p.ts': "export type Q = typeof import('./q.js');\n",
      'q.ts': "import './p.js';\nexport const q = 1;\n",
    },
    want: ['p.ts -> q.ts -> p.ts'],
  },
  {
    name: 'two separate cycles are both found',
    files: {
      'a.ts': "import './b.js';\n",
      'b.ts': "import './a.js';\n",
      'c/d.ts': "import './e.js';\n",
      'c/e.ts': "import './d.js';\n",
    },
    want: ['a.ts -> b.ts -> a.ts', 'c/d.ts -> c/e.ts -> c/d.ts'],
  },
  {
    name: 'two folders whose files import each other without a file cycle are a folder cycle',
    files: {
      'render/emit.ts': 'export const emit = 1;\n',
      'render/render.ts': "import { record } from '../publish/record.js';\nexport const render = record;\n",
      'publish/record.ts': "import { emit } from '../render/emit.js';\nexport const record = emit;\n",
    },
    want: [],
    wantFolders: ['publish -> render -> publish'],
  },
  {
    // The shape loops/ had: loops/shared/preview imported the hub, the hub imported loops/shared.
    name: "a subfolder's imports count for its parent: a cycle it would hide is found",
    files: {
      'loops/hub/pass.ts': "import { repo } from '../shared/repo.js';\nexport const pass = repo;\n",
      'loops/shared/repo.ts': 'export const repo = 1;\n',
      'loops/shared/preview/render.ts':
        "import { pass } from '../../hub/pass.js';\nexport const render = pass;\n",
    },
    want: [],
    wantFolders: ['loops/hub -> loops/shared -> loops/hub'],
  },
  {
    // Both ends deep below the folders that close the cycle: each import counts for every ancestor.
    name: 'an import between subfolders two levels down counts for every ancestor on both sides',
    files: {
      'loops/hub/pass.ts': "import { read } from '../views/read.js';\nexport const pass = read;\n",
      'loops/hub/stages/render.ts': 'export const render = 1;\n',
      'loops/views/read.ts': 'export const read = 1;\n',
      'loops/views/preview/deep/show.ts':
        "import { render } from '../../../hub/stages/render.js';\nexport const show = render;\n",
    },
    want: [],
    wantFolders: ['loops/hub -> loops/views -> loops/hub'],
  },
  {
    name: 'a folder and its own subfolder may import each other',
    files: {
      'cli/main.ts': "import { run } from './commands/run.js';\nexport const main = run;\n",
      'cli/io.ts': 'export const io = 1;\n',
      'cli/commands/run.ts': "import { io } from '../io.js';\nexport const run = io;\n",
    },
    want: [],
  },
  {
    name: 'a tree whose imports go one way passes, imports in comments and strings and of packages aside',
    files: {
      'a.ts': "import { b } from './b.js';\nimport yaml from 'js-yaml';\nexport const a = [b, yaml];\n",
      'b.ts':
        "// import { a } from './a.js';\n/* export * from './a.js'; */\nexport const b = \"import './a.js'\";\n",
    },
    want: [],
  },
];

/** Returns the chains of the lines of stderr that start with the prefix, sorted. */
function chainsAfter(stderr: string, prefix: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(line.indexOf(': ') + 2))
    .sort();
}

for (const { name, files, want, wantFolders = [] } of cases) {
  test(name, () => {
    const { status, stderr } = checkTree(files);
    assert.deepEqual(chainsAfter(stderr, 'import cycle in '), want);
    assert.deepEqual(chainsAfter(stderr, 'folder import cycle in '), wantFolders);
    assert.equal(status, want.length + wantFolders.length > 0 ? 1 : 0, stderr);
  });
}
