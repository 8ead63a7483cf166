#!/usr/bin/env node
// Writes src/core/load/schema/builtin-field-data.ts: the field tree of the common built-in kinds,
// taken from a Kubernetes API server's OpenAPI v3, for the strict-field check of templates
// (src/core/load/schema/builtin-schemas.ts reads it). Only what that check needs is kept: which
// fields each object has, which values are maps or lists, and where anything goes
// (x-kubernetes-preserve-unknown-fields, free-form objects). Descriptions, types, formats,
// defaults and enums are dropped; each shared type is written once and named.
//
//   npm run clusters -- up --count 1 --no-controllers
//   eval "$(npm run --silent clusters -- env)"
//   node scripts/generate-builtin-fields.mjs [--kubectl PATH] [--context NAME] [--from DIR]
//   npm run clusters -- down
//
// It reads /openapi/v3/<group-version> with `kubectl get --raw`, with the test clusters'
// kubeconfig (GITFLEET_TEST_KUBECONFIG, context member1) or else KUBECONFIG's current context,
// or, with --from, files saved from there: DIR/version.json (/version) and DIR/<group-version with
// '/' as '_'>.json.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const GROUP_VERSIONS = [
  'api/v1',
  'apis/apps/v1',
  'apis/batch/v1',
  'apis/autoscaling/v1',
  'apis/autoscaling/v2',
  'apis/networking.k8s.io/v1',
  'apis/rbac.authorization.k8s.io/v1',
  'apis/policy/v1',
  'apis/storage.k8s.io/v1',
  'apis/scheduling.k8s.io/v1',
  'apis/discovery.k8s.io/v1',
  'apis/apiextensions.k8s.io/v1',
];

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'src/core/load/schema/builtin-field-data.ts');
const { values } = parseArgs({
  options: {
    kubectl: { type: 'string', default: join(homedir(), '.cache/gitfleet/k8s-v1.34.4/bin/kubectl') },
    context: { type: 'string' },
    from: { type: 'string' },
  },
});
const testKubeconfig = process.env.GITFLEET_TEST_KUBECONFIG;
const kubectlArgs = testKubeconfig
  ? ['--kubeconfig', testKubeconfig, '--context', values.context ?? 'member1']
  : values.context
    ? ['--context', values.context]
    : [];

const getRaw = (path) =>
  JSON.parse(
    execFileSync(values.kubectl, [...kubectlArgs, 'get', '--raw', path], {
      maxBuffer: 1 << 28,
      encoding: 'utf8',
    }),
  );
const readSaved = (name) => JSON.parse(readFileSync(join(values.from, `${name}.json`), 'utf8'));
const readOpenApi = (gv) => (values.from ? readSaved(gv.replaceAll('/', '_')) : getRaw(`/openapi/v3/${gv}`));

// `io.k8s.api.apps.v1.DeploymentSpec` → `apps.v1.DeploymentSpec`; `…pkg.apis.meta.v1.Time` → `meta.v1.Time`.
const shortName = (name) => name.replace(/^io\.k8s\.api\./, '').replace(/^.*\.pkg\.apis\./, '');

const types = {};
const kinds = {};

for (const gv of GROUP_VERSIONS) {
  const doc = readOpenApi(gv);
  const schemas = doc.components.schemas;
  const apiVersion = gv.replace(/^apis?\//, '');
  const resolve = (schema) => {
    const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0].$ref : undefined);
    return ref === undefined
      ? { schema }
      : { name: ref.split('/').pop(), schema: schemas[ref.split('/').pop()] };
  };
  // 0: anything (a scalar, or fields not checked); ["l", x]: a list; ["m", x]: a map; {…}: an
  // object's fields; "name": a named object type.
  const encode = (given) => {
    const { name, schema } = resolve(given);
    if (schema === undefined || schema['x-kubernetes-preserve-unknown-fields']) return 0;
    if (schema.type === 'array') return ['l', encode(schema.items ?? {})];
    if (schema.properties) {
      if (name === undefined) return fields(schema);
      const short = shortName(name);
      if (!(short in types)) {
        types[short] = null; // claimed before its fields, so recursive types end
        types[short] = fields(schema);
      }
      return short;
    }
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
      return ['m', encode(schema.additionalProperties)];
    return 0;
  };
  const fields = (schema) =>
    Object.fromEntries(
      Object.keys(schema.properties)
        .sort()
        .map((f) => [f, encode(schema.properties[f])]),
    );
  // The kinds one can create: the bodies of POST on a collection (no {name} in the path).
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!item.post || path.includes('{name}')) continue;
    const ref = item.post.requestBody?.content?.['*/*']?.schema?.$ref;
    if (!ref) continue;
    const definition = ref.split('/').pop();
    const gvk = (schemas[definition]['x-kubernetes-group-version-kind'] ?? []).find(
      (k) => (k.group ? `${k.group}/${k.version}` : k.version) === apiVersion,
    );
    if (gvk) kinds[`${apiVersion} ${gvk.kind}`] = encode({ $ref: ref });
  }
}

const version = (values.from ? readSaved('version') : getRaw('/version')).gitVersion;
const sortedTypes = Object.fromEntries(
  Object.keys(types)
    .sort()
    .map((k) => [k, types[k]]),
);
const sortedKinds = Object.fromEntries(
  Object.keys(kinds)
    .sort()
    .map((k) => [k, kinds[k]]),
);
const data = JSON.stringify({ kinds: sortedKinds, types: sortedTypes });
writeFileSync(
  out,
  `// Generated by scripts/generate-builtin-fields.mjs from the OpenAPI v3 of Kubernetes ${version}; do not edit.\n` +
    `// The encoding is described in builtin-schemas.ts.\n` +
    `export const BUILTIN_FIELD_DATA =\n  '${data}';\n`,
);
console.log(
  `${out}: ${Object.keys(kinds).length} kinds, ${Object.keys(types).length} types, ${data.length} bytes`,
);
