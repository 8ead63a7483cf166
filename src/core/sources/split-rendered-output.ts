// Turns a render tool's output into files the loader reads as templates, named so that every
// error and explanation says where an object came from: `<source file>@<chart file>` for Helm
// (the `# Source:` comment helm writes above each document), `<source file>@<path>/kustomize.yaml`
// for Kustomize. Documents keep their order; the line of each is its line in the chart file's
// rendered text, as helm printed it.
import type { RenderedFile } from '../load/load-fleet.js';
import type { TemplateSource } from '../model/template-source.js';

const SOURCE_COMMENT = /^# Source: (.+)$/;

/** Returns the rendered files of a HelmSource's `helm template` output, grouped by chart file. */
export function splitHelmOutput(
  output: string,
  source: TemplateSource & { kind: 'HelmSource' },
): RenderedFile[] {
  const byFile = new Map<string, string[]>();
  let current: string[] | undefined;
  let currentFile = 'unknown.yaml';
  for (const doc of output.split(/^---[ \t]*$/m)) {
    const lines = doc.replace(/^\n/, '').split('\n');
    const marker = lines.findIndex((l) => SOURCE_COMMENT.test(l));
    if (marker >= 0) currentFile = SOURCE_COMMENT.exec(lines[marker]!)![1]!.trim();
    if (lines.every((l) => l.trim() === '' || l.trimStart().startsWith('#'))) continue;
    current = byFile.get(currentFile);
    if (current === undefined) byFile.set(currentFile, (current = []));
    current.push(lines.join('\n').trimEnd());
  }
  return [...byFile].map(([file, docs]) => ({
    path: `${source.source.file}@${yamlName(file)}`,
    content: docs.join('\n---\n') + '\n',
    namespace: source.namespace,
  }));
}

/** Returns the rendered file of a KustomizeSource's `kustomize build` output. */
export function kustomizeOutputFile(
  output: string,
  source: TemplateSource & { kind: 'KustomizeSource' },
): RenderedFile {
  return { path: `${source.source.file}@${source.path}/kustomize.yaml`, content: output };
}

// The loader reads .yaml files only: a chart file named otherwise (NOTES.txt never reaches the
// output; a `.tpl` that emits objects might) is read under its name with .yaml added.
function yamlName(file: string): string {
  return file.endsWith('.yaml') || file.endsWith('.yml') ? file : `${file}.yaml`;
}
