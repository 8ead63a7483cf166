// How an agent gets the customizations it needs: it reads only its cluster branch, so the hub
// writes there, under the hub's own `.gitfleet/` directory (never applied, never pruned, not
// counted by the mass-deletion guard), the customizations whose target kind the branch holds
// objects of. The agent runs their Retain, InterpretHealth and InterpretStatus scripts
// (docs/resource-interpreter.md). When no customization applies any more, the file stays with
// none in it, so the agent stops using the old ones.
import { emitYaml } from '../format/emit-yaml.js';
import { groupOf } from '../model/object-ref.js';
import { interpreterOperations, type InterpreterCustomization } from '../model/interpreter-customization.js';
import { parseInterpreterCustomization } from '../load/parse-interpreter-customization.js';
import { parseYamlStream } from '../load/parse-yaml-stream.js';
import { isMap } from '../model/kube-object.js';

/** The file of a cluster branch that holds its customizations. */
export const branchCustomizationsPath = '.gitfleet/interpreter-customizations.yaml';

const NONE = '# no ResourceInterpreterCustomization applies to this cluster\n';

/**
 * Returns the text of the customizations file for a branch with these paths: the customizations
 * whose target's group and kind the branch has objects of, in name order; the text saying none
 * applies when none does but the branch had the file; undefined when there is nothing to write.
 */
export function branchCustomizationsText(
  customizations: readonly InterpreterCustomization[],
  paths: Iterable<string>,
  hadFile: boolean,
): string | undefined {
  // Most fleets have no customizations: then the paths are not even looked at.
  if (customizations.length === 0) return hadFile ? NONE : undefined;
  const kindDirs = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    if (parts.length === 3) kindDirs.add(parts[1]!);
  }
  const needed = customizations
    .filter((c) => {
      const group = groupOf(c.target.apiVersion);
      return kindDirs.has(group ? `${c.target.kind}.${group}` : c.target.kind);
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (needed.length === 0) return hadFile ? NONE : undefined;
  return needed.map((c) => emitYaml(documentOf(c))).join('---\n');
}

function documentOf(c: InterpreterCustomization): Record<string, unknown> {
  const rules: Record<string, unknown> = {};
  for (const [operation, script] of Object.entries(c.scripts)) {
    rules[interpreterOperations[operation as keyof typeof interpreterOperations].rule] = {
      luaScript: script,
    };
  }
  return {
    apiVersion: 'config.karmada.io/v1alpha1',
    kind: 'ResourceInterpreterCustomization',
    metadata: { name: c.name },
    spec: { target: c.target, customizations: rules },
  };
}

/** Returns the customizations a branch's file holds (those that do not parse are left out, with why). */
export function parseBranchCustomizations(text: string): {
  customizations: InterpreterCustomization[];
  errors: string[];
} {
  const file = { path: branchCustomizationsPath, content: text };
  const parsed = parseYamlStream(file, {
    maxFileBytes: 8 * 1024 * 1024,
    maxExpandedNodes: 200_000,
    maxExpandedBytes: 16 * 1024 * 1024,
  });
  if (!parsed.ok) return { customizations: [], errors: parsed.errors.map((e) => e.message) };
  const customizations: InterpreterCustomization[] = [];
  const errors: string[] = [];
  for (const doc of parsed.documents) {
    const object = doc.value;
    if (!isMap(object)) continue;
    const metadata = object['metadata'];
    const name = isMap(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : '';
    const result = parseInterpreterCustomization({
      object,
      name,
      source: { file: file.path, index: doc.index },
    });
    if (result.ok) customizations.push(result.customization);
    else
      errors.push(
        `ResourceInterpreterCustomization/${name}: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      );
  }
  return { customizations, errors };
}
