// A small fleet repository with a Helm chart and a Kustomize base and overlay, written into a
// directory, for the template source tests (docs/sources.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import yaml from 'js-yaml';

/** Writes files (path → text) under a directory. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A chart `charts/web`: a Deployment, a Service, a ConfigMap when `config.enabled`, a helper template. */
export const webChart: Record<string, string> = {
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\nappVersion: "1.27"\n',
  'charts/web/values.yaml':
    'replicas: 2\nimage: nginx\ntag: "1.27"\nconfig:\n  enabled: false\n  greeting: hello\n',
  'charts/web/templates/_helpers.tpl': '{{- define "web.labels" -}}\napp: {{ .Release.Name }}\n{{- end -}}\n',
  'charts/web/templates/deployment.yaml': [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: {{ .Release.Name }}',
    '  labels:',
    '    {{- include "web.labels" . | nindent 4 }}',
    'spec:',
    '  replicas: {{ .Values.replicas }}',
    '  selector:',
    '    matchLabels:',
    '      {{- include "web.labels" . | nindent 6 }}',
    '  template:',
    '    metadata:',
    '      labels:',
    '        {{- include "web.labels" . | nindent 8 }}',
    '    spec:',
    '      containers:',
    '        - name: web',
    '          image: {{ .Values.image }}:{{ .Values.tag }}',
    '',
  ].join('\n'),
  'charts/web/templates/service.yaml': [
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: {{ .Release.Name }}',
    'spec:',
    '  selector:',
    '    {{- include "web.labels" . | nindent 4 }}',
    '  ports:',
    '    - port: 80',
    '',
  ].join('\n'),
  'charts/web/templates/configmap.yaml': [
    '{{- if .Values.config.enabled }}',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: {{ .Release.Name }}-config',
    'data:',
    '  greeting: {{ .Values.config.greeting | quote }}',
    '{{- end }}',
    '',
  ].join('\n'),
};

/** A HelmSource document for `charts/web`. */
export function helmSource(
  opts: { name?: string; namespace?: string; values?: string; valuesFiles?: string[] } = {},
): string {
  const lines = [
    'apiVersion: gitfleet.io/v1alpha1',
    'kind: HelmSource',
    'metadata:',
    `  name: ${opts.name ?? 'web'}`,
    'spec:',
    '  chart:',
    '    path: charts/web',
    `  releaseName: ${opts.name ?? 'web'}`,
    `  namespace: ${opts.namespace ?? 'shop'}`,
  ];
  if (opts.valuesFiles) lines.push('  valuesFiles:', ...opts.valuesFiles.map((f) => `    - ${f}`));
  if (opts.values) lines.push('  values:', ...opts.values.split('\n').map((l) => `    ${l}`));
  return lines.join('\n') + '\n';
}

/** The web chart under `web/` (to package and publish), at a version and with an image tag as given. */
export function publishedWebChart(opts: { version: string; tag: string }): Record<string, string> {
  return Object.fromEntries(
    Object.entries(webChart).map(([path, text]) => [
      path.replace(/^charts\//, ''),
      path.endsWith('Chart.yaml')
        ? text.replace('version: 0.1.0', `version: ${opts.version}`)
        : text.replace('tag: "1.27"', `tag: "${opts.tag}"`),
    ]),
  );
}

/** A HelmSource `web` (release web, namespace shop) whose `spec.chart` holds the lines given, with replicas 3. */
export function remoteChartSource(chart: readonly string[]): string {
  return [
    'apiVersion: gitfleet.io/v1alpha1',
    'kind: HelmSource',
    'metadata:',
    '  name: web',
    'spec:',
    '  chart:',
    ...chart.map((l) => `    ${l}`),
    '  releaseName: web',
    '  namespace: shop',
    '  values: {replicas: 3}',
    '',
  ].join('\n');
}

/** A Kustomize base `kustomize/base` (a Deployment) and an overlay `kustomize/prod` that renames and scales it. */
export const overlay: Record<string, string> = {
  'kustomize/base/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
  'kustomize/base/deployment.yaml': [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: api',
    'spec:',
    '  replicas: 1',
    '  selector:',
    '    matchLabels: {app: api}',
    '  template:',
    '    metadata:',
    '      labels: {app: api}',
    '    spec:',
    '      containers:',
    '        - name: api',
    '          image: example/api:1.0',
    '',
  ].join('\n'),
  'kustomize/prod/kustomization.yaml': [
    'namespace: shop',
    'namePrefix: prod-',
    'resources:',
    '  - ../base',
    'replicas:',
    '  - name: api',
    '    count: 4',
    '',
  ].join('\n'),
  'sources/api.yaml':
    'apiVersion: gitfleet.io/v1alpha1\nkind: KustomizeSource\nmetadata:\n  name: api\nspec:\n  path: kustomize/prod\n',
};

/**
 * A chart `charts/caps` that reads Helm's `.Capabilities`: a ConfigMap saying the Kubernetes
 * version and whether the ServiceMonitor API is there, with a greeting from values, and a
 * Deployment of `replicas`.
 */
export const capsChart: Record<string, string> = {
  'charts/caps/Chart.yaml': 'apiVersion: v2\nname: caps\nversion: 0.1.0\n',
  'charts/caps/values.yaml': 'replicas: 1\ngreeting: hello\n',
  'charts/caps/templates/configmap.yaml': [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: {{ .Release.Name }}-facts',
    'data:',
    '  kubeVersion: {{ .Capabilities.KubeVersion.Version | quote }}',
    '  monitoring: {{ .Capabilities.APIVersions.Has "monitoring.coreos.com/v1/ServiceMonitor" | quote }}',
    '  greeting: {{ .Values.greeting | quote }}',
    '',
  ].join('\n'),
  'charts/caps/templates/deployment.yaml': [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: {{ .Release.Name }}',
    'spec:',
    '  replicas: {{ .Values.replicas }}',
    '  selector: {matchLabels: {app: {{ .Release.Name }}}}',
    '  template:',
    '    metadata: {labels: {app: {{ .Release.Name }}}}',
    '    spec: {containers: [{name: app, image: "nginx:1.27"}]}',
    '',
  ].join('\n'),
};

/** A HelmSource document for `charts/caps`, with `clusterValues` given as YAML lines under the key. */
export function capsSource(opts: { values?: string; clusterValues?: string } = {}): string {
  const lines = [
    'apiVersion: gitfleet.io/v1alpha1',
    'kind: HelmSource',
    'metadata:',
    '  name: caps',
    'spec:',
    '  chart: {path: charts/caps}',
    '  releaseName: caps',
    '  namespace: shop',
  ];
  if (opts.values) lines.push('  values:', ...opts.values.split('\n').map((l) => `    ${l}`));
  if (opts.clusterValues)
    lines.push('  clusterValues:', ...opts.clusterValues.split('\n').map((l) => `    ${l}`));
  return lines.join('\n') + '\n';
}

/** A Cluster registration document. */
export function clusterDocument(name: string, labels: Record<string, string> = {}): string {
  const lines = ['apiVersion: cluster.karmada.io/v1alpha1', 'kind: Cluster', 'metadata:', `  name: ${name}`];
  if (Object.keys(labels).length > 0)
    lines.push('  labels:', ...Object.entries(labels).map(([k, v]) => `    ${k}: ${v}`));
  return lines.join('\n') + '\n';
}

/** Cluster east and a PropagationPolicy placing shop's Deployments (and Services, with `services`) there: the fleet around a chart. */
export function eastFleet(opts: { services?: boolean } = {}): Record<string, string> {
  const kinds = [
    '{apiVersion: apps/v1, kind: Deployment}',
    ...(opts.services ? ['{apiVersion: v1, kind: Service}'] : []),
  ];
  return {
    'clusters/east.yaml': clusterDocument('east'),
    'policies/shop.yaml': [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: PropagationPolicy',
      'metadata: {name: shop, namespace: shop}',
      'spec:',
      `  resourceSelectors: [${kinds.join(', ')}]`,
      '  placement: {clusterAffinity: {clusterNames: [east]}}',
      '',
    ].join('\n'),
  };
}

/** Returns the YAML documents of some texts as JSON, sorted: what a holdout compares with the tool run directly. */
export function yamlDocuments(texts: readonly string[]): string[] {
  return texts
    .flatMap((t) => yaml.loadAll(t))
    .filter((d) => d !== null && d !== undefined)
    .map((d) => JSON.stringify(d))
    .sort();
}
