// Which repository paths the template sources read (docs/sources.md): a HelmSource's chart and
// values files, a KustomizeSource's kustomization directory and every local base, component or
// resource it reaches. Those paths are the tools' inputs, not fleet documents: the loader does not
// read them as templates (a chart's templates are not YAML; a base rendered once is not a second
// copy). Read from the raw documents, before any is validated, so the load knows what to skip
// before it collects; the sources themselves are validated where they are collected.
//
// A kustomization that names a remote base (a URL, `github.com/…`, `git@…`) or a path outside the
// repository is refused here, naming the kustomization file and the entry: kustomize would fetch
// the one and read the other from the hub's file system.
import { isMap } from '../model/kube-object.js';
import type { LoadError } from './load-error.js';
import type { RawDocument } from './parse-yaml-stream.js';
import type { SourceFile } from './source-file.js';

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const REFERENCE_FIELDS = ['resources', 'bases', 'components'];

/** What the sources read: paths (files or directories) and the errors found following kustomizations. */
export interface SourceInputs {
  /** Input paths of each source document, by `file#index`. */
  bySource: Map<string, string[]>;
  /** Every input path, for the loader to skip. */
  all: Set<string>;
  errors: LoadError[];
}

/** Returns whether a kustomization entry names something remote. */
export function isRemoteReference(entry: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ||
    /^(git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)/.test(entry) ||
    entry.includes('?ref=')
  );
}

/** Returns a repository path joined with a relative one, or undefined when it leaves the repository. */
export function joinRepositoryPath(base: string, relative: string): string | undefined {
  if (relative.startsWith('/')) return undefined;
  const out = base === '' ? [] : base.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/** Returns the input paths of every source document among the parsed files, with kustomizations followed. */
export function findSourceInputs(
  files: readonly SourceFile[],
  parsedOf: (file: SourceFile) => RawDocument[] | undefined,
): SourceInputs {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const found: SourceInputs = { bySource: new Map(), all: new Set(), errors: [] };
  for (const file of files) {
    if (!file.content.includes('HelmSource') && !file.content.includes('KustomizeSource')) continue;
    for (const doc of parsedOf(file) ?? []) {
      const v = doc.value;
      if (!isMap(v) || v['apiVersion'] !== 'gitfleet.io/v1alpha1' || !isMap(v['spec'])) continue;
      const spec = v['spec'];
      const at = { file: file.path, index: doc.index, line: doc.line };
      let inputs: string[] = [];
      if (v['kind'] === 'HelmSource') {
        const chart = isMap(spec['chart']) ? spec['chart']['path'] : undefined;
        const values = Array.isArray(spec['valuesFiles']) ? spec['valuesFiles'] : [];
        inputs = [chart, ...values]
          .filter((p): p is string => typeof p === 'string')
          .map((p) => p.replace(/\/+$/, ''));
      } else if (v['kind'] === 'KustomizeSource' && typeof spec['path'] === 'string') {
        inputs = followKustomization(spec['path'].replace(/\/+$/, ''), { byPath, parsedOf, at, found });
      }
      const own = inputs.find(
        (root) => root === '' || file.path === root || file.path.startsWith(`${root}/`),
      );
      if (own !== undefined) {
        const message = `${String(v['kind'])}: the document lies under its own input ${JSON.stringify(own)}, which is not read as fleet documents: move it out`;
        found.errors.push({ code: 'InvalidSource', ...at, message });
      }
      found.bySource.set(`${file.path}#${doc.index}`, inputs);
      for (const p of inputs) found.all.add(p);
    }
  }
  return found;
}

interface Walk {
  byPath: ReadonlyMap<string, SourceFile>;
  parsedOf: (file: SourceFile) => RawDocument[] | undefined;
  at: { file: string; index: number; line: number };
  found: SourceInputs;
}

function followKustomization(root: string, walk: Walk): string[] {
  const seen = new Set<string>();
  const queue = [root];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    const file = KUSTOMIZATION_FILES.map((n) => walk.byPath.get(dir === '' ? n : `${dir}/${n}`)).find(
      Boolean,
    );
    const doc = file === undefined ? undefined : walk.parsedOf(file)?.[0]?.value;
    if (file === undefined || !isMap(doc)) continue;
    for (const field of REFERENCE_FIELDS) {
      const entries = Array.isArray(doc[field]) ? doc[field] : [];
      for (const entry of entries) {
        if (typeof entry !== 'string') continue;
        const target = isRemoteReference(entry) ? undefined : joinRepositoryPath(dir, entry);
        if (target === undefined) {
          const why = isRemoteReference(entry)
            ? 'is a remote base, which gitfleet does not fetch'
            : 'leaves the repository';
          const message = `KustomizeSource: ${file.path}: ${field}: ${JSON.stringify(entry)} ${why}`;
          walk.found.errors.push({ code: 'InvalidSource', ...walk.at, message });
        } else if (KUSTOMIZATION_FILES.some((n) => walk.byPath.has(`${target}/${n}`))) queue.push(target);
      }
    }
  }
  return [...seen].sort();
}
