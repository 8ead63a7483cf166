// The YAML schema documents are read with: YAML 1.2's core schema (so timestamps stay strings, as
// Kubernetes reads them), plus the two YAML 1.1 habits that Kubernetes' own YAML reader
// (sigs.k8s.io/yaml, go-yaml v2) keeps and that fleet repos rely on:
// - merge keys (`<<: *defaults`);
// - leading-zero octal integers (`defaultMode: 0644` is 420, as kubectl reads it).
// YAML 1.1 booleans (yes/no/on/off) are not taken over: they stay strings.
import * as jsyaml from 'js-yaml';

// @types/js-yaml does not declare the built-in `types` export, which the library does provide.
const builtins = (
  jsyaml as unknown as { types: Record<'null' | 'bool' | 'int' | 'float' | 'merge', jsyaml.Type> }
).types;

const LEGACY_OCTAL = /^[-+]?0[0-7]+$/;

// One int type (js-yaml keeps one type per tag): the core schema's, plus YAML 1.1's `0644`.
const coreInt = builtins.int as jsyaml.Type & {
  resolve(data: unknown): boolean;
  construct(data: unknown): unknown;
};
const kubeInt = new jsyaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: unknown) => (typeof data === 'string' && LEGACY_OCTAL.test(data)) || coreInt.resolve(data),
  construct: (data: string) => (LEGACY_OCTAL.test(data) ? parseLegacyOctal(data) : coreInt.construct(data)),
  predicate: (value: object) => coreInt.predicate?.(value) ?? false,
});

function parseLegacyOctal(text: string): number {
  const value = parseInt(text.replace(/^[-+]?0/, ''), 8);
  return text.startsWith('-') ? -value : value;
}

/** The schema documents are parsed with (core schema + merge keys + leading-zero octal). */
export const KUBE_YAML_SCHEMA: jsyaml.Schema = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [builtins.null, builtins.bool, kubeInt, builtins.float, builtins.merge],
});
