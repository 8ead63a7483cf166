// Rendered cluster trees for the git-write benchmark: N clusters x M manifests of ~1-2 KB,
// laid out as gitfleet lays out a cluster branch (<namespace>/<Kind>[.<group>]/<name>.yaml).
// As in a real fleet most manifests are shared: 40% are identical on every cluster, 40%
// differ by region (5 regions: image registry), 20% by cluster (divided replicas).

/** One cluster's rendered files: path -> YAML bytes. */
export interface RenderedCluster {
  name: string;
  files: Map<string, Buffer>;
}

const kinds = [
  { dir: 'Deployment.apps', kind: 'Deployment', apiVersion: 'apps/v1' },
  { dir: 'Service', kind: 'Service', apiVersion: 'v1' },
  { dir: 'ConfigMap', kind: 'ConfigMap', apiVersion: 'v1' },
];

/** Returns the rendered trees of `clusters` clusters with `files` manifests each; same input, same bytes. */
export function generateRenderedClusters(clusters: number, files: number): RenderedCluster[] {
  return Array.from({ length: clusters }, (_, c) => {
    const map = new Map<string, Buffer>();
    for (let i = 0; i < files; i++) {
      const kind = kinds[i % kinds.length]!;
      const ns = `team-${i % 10}`;
      map.set(`${ns}/${kind.dir}/app-${i}.yaml`, Buffer.from(manifest({ c, i, ns, ...kind })));
    }
    return { name: `member${c + 1}`, files: map };
  });
}

function manifest(m: { c: number; i: number; ns: string; kind: string; apiVersion: string }): string {
  const variant = m.i % 10 < 4 ? 'global' : m.i % 10 < 8 ? `region-${m.c % 5}` : `cluster-${m.c}`;
  const replicas = variant.startsWith('cluster') ? 2 + (m.c % 7) : 3;
  const lines = [
    `apiVersion: ${m.apiVersion}`,
    `kind: ${m.kind}`,
    'metadata:',
    '  annotations:',
    `    gitfleet.io/binding: ${m.ns}/app-${m.i}-${m.kind.toLowerCase()}`,
    `    gitfleet.io/policy: ${m.ns}/spread`,
    `    gitfleet.io/source: apps/${m.ns}/app-${m.i}.yaml`,
    '  labels:',
    `    app: app-${m.i}`,
    '    gitfleet.io/managed: "true"',
    `  name: app-${m.i}`,
    `  namespace: ${m.ns}`,
    'spec:',
    `  replicas: ${replicas}`,
    '  template:',
    '    spec:',
    '      containers:',
    `      - image: ${variant.startsWith('global') ? 'registry.example.com' : `${variant}.registry.example.com`}/app-${m.i}:1.${m.i % 13}.0`,
    '        name: main',
    '        env:',
  ];
  const size = 900 + (m.i % 9) * 120;
  for (let k = 0; lines.join('\n').length < size; k++) {
    lines.push(`        - name: SETTING_${k}`, `          value: "${(m.i * 7919 + k * 104729) % 1000003}"`);
  }
  return `${lines.join('\n')}\n`;
}
