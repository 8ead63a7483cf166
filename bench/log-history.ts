// A fleet repository with a long history for the log benchmark, written with `git fast-import`
// in the hub's format (docs/architecture.md#branches-and-commits): `commits` source commits on
// main, and for each one a render commit on every cluster branch, whose tree holds `objects`
// files in 20 namespaces plus the followed object `shop/Deployment.apps/web.yaml`. Each render
// changes one ConfigMap of another namespace; every `webEvery`th also changes web (its replicas),
// so web's history is `commits / webEvery` entries per cluster. Messages are the hub's: `render
// <sha7>: <subject>`, the change list, the Gitfleet-Source-Commit and -Ref trailers.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFastImport } from './git-write-fast-import.js';

export interface LogHistoryShape {
  commits: number;
  clusters: number;
  /** Files per cluster branch besides web. */
  objects: number;
  webEvery: number;
}

/** The followed object's path on the cluster branches. */
export const webPath = 'shop/Deployment.apps/web.yaml';

const T0 = Date.UTC(2026, 0, 1) / 1000;

/** Builds the repository at `gitdir` (bare); returns the number of commits written. */
export async function buildLogHistory(gitdir: string, shape: LogHistoryShape): Promise<number> {
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gitdir]);
  const marks = join(gitdir, 'source-marks');
  await runFastImport(gitdir, sourceStream(shape));
  execFileSync('git', ['--git-dir', gitdir, 'fast-export', '--no-data', '--export-marks=' + marks, 'main'], {
    maxBuffer: 1 << 28,
  });
  const sources = readFileSync(marks, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ')[1]!);
  await runFastImport(gitdir, renderStream(shape, sources));
  return shape.commits * (shape.clusters + 1);
}

function sourceStream(shape: LogHistoryShape): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < shape.commits; i++) {
    const message = `change ${i}\n`;
    parts.push(
      `commit refs/heads/main\nmark :${i + 1}\n`,
      `author Dev <dev@example.com> ${T0 + i * 60} +0000\n`,
      `committer Dev <dev@example.com> ${T0 + i * 60} +0000\n`,
      `data ${Buffer.byteLength(message)}\n${message}`,
      `M 100644 inline apps/change.yaml\ndata ${String(i).length + 1}\n${i}\n\n`,
    );
  }
  return Buffer.from(parts.join(''));
}

function renderStream(shape: LogHistoryShape, sources: readonly string[]): Buffer {
  const parts: string[] = [];
  const file = (path: string, text: string) =>
    parts.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  for (let i = 0; i < shape.commits; i++) {
    const source = sources[i]!;
    const changesWeb = i === 0 || i % shape.webEvery === 0;
    for (let c = 1; c <= shape.clusters; c++) {
      const cm = configMapPath((i * 7 + c) % shape.objects);
      const changed = i === 0 ? ['(first render)'] : [cm, ...(changesWeb ? [webPath] : [])];
      const message = [
        `render ${source.slice(0, 7)}: change ${i}`,
        '',
        ...changed.map((p) => `${p.replace(/\.yaml$/, '')}: ${i === 0 ? 'added' : 'changed'}`),
        '',
        `Gitfleet-Source-Commit: ${source}`,
        'Gitfleet-Source-Ref: refs/heads/main',
        '',
      ].join('\n');
      parts.push(
        `commit refs/heads/gitfleet/clusters/member${c}\n`,
        `committer gitfleet <hub@gitfleet.invalid> ${T0 + i * 60 + c} +0000\n`,
        `data ${Buffer.byteLength(message)}\n${message}`,
      );
      if (i === 0) for (let o = 0; o < shape.objects; o++) file(configMapPath(o), configMap(o, 0));
      else file(cm, configMap((i * 7 + c) % shape.objects, i));
      if (changesWeb) file(webPath, `kind: Deployment\nspec:\n  replicas: ${(i / shape.webEvery) % 9}\n`);
      parts.push('\n');
    }
  }
  return Buffer.from(parts.join(''));
}

function configMapPath(o: number): string {
  return `ns${String(o % 20).padStart(2, '0')}/ConfigMap/cm-${o}.yaml`;
}

function configMap(o: number, version: number): string {
  return `kind: ConfigMap\nmetadata:\n  name: cm-${o}\ndata:\n  version: "${version}"\n`;
}
