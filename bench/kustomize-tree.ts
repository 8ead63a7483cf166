// The same fleet the way users build it without gitfleet: kustomize, one overlay per cluster.
//
//   base/<dir>/                      one base per template file (an app): its templates, verbatim
//   components/region-<region>/      `images:` moving every Deployment to the region's registry
//   components/edge/                 the plaintext override of tier=edge clusters, as a JSON patch
//   overlays/<cluster>/<dir>/        the app on that cluster: `replicas:` and deletions
//   clusters/<cluster>/              what `kustomize build` runs on: the cluster's app overlays
//                                    plus its region and tier components
//
// The per-cluster replica counts, and which objects a cluster does not get at all, are taken
// from a gitfleet render of the same fleet: a kustomize user would have to compute Karmada's
// static-weight division by hand, and copying the result keeps the two outputs comparable. The
// image and plaintext rules are the generator's policies (generate-fleet.ts) written as
// kustomize would express them. One app per overlay keeps `replicas:` (matched by name only)
// from touching same-named Deployments of other namespaces.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import yaml from 'js-yaml';
import type { Cluster } from '../src/core/model/cluster.js';
import type { Fleet, Template } from '../src/core/model/fleet.js';
import type { SourceFile } from '../src/core/load/load-fleet.js';
import type { RenderResult } from '../src/core/render/render-fleet.js';

/** What a kustomize tree is generated from. */
export interface KustomizeTreeInput {
  files: readonly SourceFile[];
  fleet: Fleet;
  render: RenderResult;
  dir: string;
}

type Write = (path: string, doc: unknown) => void;

/** Writes the kustomize tree of the fleet under `dir`; returns each cluster's directory to build. */
export function writeKustomizeTree(input: KustomizeTreeInput): Map<string, string> {
  const byFile = groupByFile(input.fleet.templates);
  const write: Write = (path, doc) => put(join(input.dir, path), yaml.dump(doc, { lineWidth: -1 }));
  const regions = new Set(input.fleet.clusters.flatMap((c) => (c.region ? [c.region] : [])));
  for (const [file, templates] of byFile) {
    const app = posix.dirname(file);
    put(join(input.dir, 'base', app, posix.basename(file)), sourceText(input.files, file));
    write(`base/${app}/kustomization.yaml`, { resources: [posix.basename(file)] });
    for (const region of regions) {
      const component = regionComponent(templates, region);
      if (component !== undefined) write(`components/${app}/region-${region}/kustomization.yaml`, component);
    }
  }
  write('components/edge/kustomization.yaml', edgeComponent());
  const clusterDirs = new Map<string, string>();
  for (const cluster of input.fleet.clusters) {
    const rendered = input.render.clusters.get(cluster.name)?.files ?? new Map<string, string>();
    writeClusterOverlays({ cluster, byFile, placed: placedObjects(rendered), write });
    clusterDirs.set(cluster.name, join(input.dir, 'clusters', cluster.name));
  }
  return clusterDirs;
}

/** Writes a cluster's overlay of every app it runs something of, and its kustomization listing them. */
function writeClusterOverlays(opts: {
  cluster: Cluster;
  byFile: Map<string, Template[]>;
  placed: Map<string, { replicas?: number }>;
  write: Write;
}): void {
  const { cluster, placed } = opts;
  const apps: string[] = [];
  for (const [file, templates] of opts.byFile) {
    const app = posix.dirname(file);
    if (!templates.some((t) => placed.has(objectKey(t.object)))) continue;
    apps.push(`../../overlays/${cluster.name}/${app}`);
    const up = `../../${'../'.repeat(depth(app))}`;
    const components = [
      ...(cluster.region && regionComponent(templates, cluster.region)
        ? [`${up}components/${app}/region-${cluster.region}`]
        : []),
      ...(cluster.labels['tier'] === 'edge' ? [`${up}components/edge`] : []),
    ];
    const overlay = appOverlay({ base: `${up}base/${app}`, components, templates, placed });
    opts.write(`overlays/${cluster.name}/${app}/kustomization.yaml`, overlay);
  }
  opts.write(`clusters/${cluster.name}/kustomization.yaml`, { resources: apps });
}

/** The rendered objects of one cluster by key, each with its rendered replica count when it has one. */
function placedObjects(files: ReadonlyMap<string, string>): Map<string, { replicas?: number }> {
  const placed = new Map<string, { replicas?: number }>();
  for (const text of files.values()) {
    const object = yaml.load(text) as Record<string, unknown>;
    const spec = object['spec'] as { replicas?: number } | undefined;
    placed.set(objectKey(object), spec?.replicas === undefined ? {} : { replicas: spec.replicas });
  }
  return placed;
}

function appOverlay(opts: {
  base: string;
  components: string[];
  templates: readonly Template[];
  placed: Map<string, { replicas?: number }>;
}) {
  const { templates, placed } = opts;
  const replicas: { name: string; count: number }[] = [];
  const patches: { patch: string }[] = [];
  for (const t of templates) {
    const got = placed.get(objectKey(t.object));
    if (got === undefined) patches.push({ patch: deletePatch(t) });
    else if (got.replicas !== undefined && t.ref.kind === 'Deployment')
      replicas.push({ name: t.ref.name, count: got.replicas });
  }
  return {
    resources: [opts.base],
    ...(opts.components.length > 0 ? { components: opts.components } : {}),
    ...(replicas.length > 0 ? { replicas } : {}),
    ...(patches.length > 0 ? { patches } : {}),
  };
}

function deletePatch(t: Template): string {
  const metadata = { name: t.ref.name, ...(t.ref.namespace ? { namespace: t.ref.namespace } : {}) };
  return yaml.dump({ $patch: 'delete', apiVersion: t.object['apiVersion'], kind: t.ref.kind, metadata });
}

function regionComponent(templates: readonly Template[], region: string) {
  const images = new Set<string>();
  for (const t of templates) {
    if (t.ref.kind !== 'Deployment') continue;
    for (const image of containerImages(t.object)) images.add(image.replace(/[:@].*$/, ''));
  }
  if (images.size === 0) return undefined;
  return {
    apiVersion: 'kustomize.config.k8s.io/v1alpha1',
    kind: 'Component',
    images: [...images]
      .sort()
      .map((name) => ({ name, newName: name.replace(/^[^/]+/, `${region}.registry.example.com`) })),
  };
}

function edgeComponent() {
  const patch = [
    { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '50m' },
  ];
  return {
    apiVersion: 'kustomize.config.k8s.io/v1alpha1',
    kind: 'Component',
    patches: [{ target: { group: 'apps', version: 'v1', kind: 'Deployment' }, patch: yaml.dump(patch) }],
  };
}

function containerImages(object: Record<string, unknown>): string[] {
  const spec = (object['spec'] as { template?: { spec?: { containers?: { image?: string }[] } } } | undefined)
    ?.template?.spec;
  return (spec?.containers ?? []).flatMap((c) => (c.image ? [c.image] : []));
}

/** Returns `kind/namespace/name`, the identity both outputs are compared by. */
export function objectKey(object: Record<string, unknown>): string {
  const metadata = (object['metadata'] ?? {}) as { name?: string; namespace?: string };
  return `${String(object['kind'])}/${metadata.namespace ?? ''}/${metadata.name ?? ''}`;
}

function groupByFile(templates: readonly Template[]): Map<string, Template[]> {
  const byFile = new Map<string, Template[]>();
  for (const t of templates) byFile.set(t.source.file, [...(byFile.get(t.source.file) ?? []), t]);
  return byFile;
}

function sourceText(files: readonly SourceFile[], path: string): string {
  const file = files.find((f) => f.path === path);
  if (file === undefined) throw new Error(`no source file ${path}`);
  return file.content;
}

const depth = (dir: string): number => dir.split('/').length;

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
