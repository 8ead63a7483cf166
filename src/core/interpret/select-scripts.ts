// Which script runs for an object and an operation when several customizations target its kind
// (Karmada's configmanager, pkg/resourceinterpreter/customized/declarative/configmanager:
// manager.go LoadConfig and accessor.go Merge):
//
// 1. a customization applies to objects whose apiVersion and kind are exactly its target's
//    (group, version and kind: no other version of the kind);
// 2. customizations are taken in name order; for each operation the first non-empty script
//    wins (a later one only fills an operation still without a script);
// 3. InterpretDependency takes every non-empty script, in that order; their results are merged.
//
// The loader already refuses two customizations of one target scripting one operation, as
// Karmada's admission webhook does (parse-interpreter-customization.ts), so rule 2 decides only
// between an empty script and a non-empty one.
import type { InterpreterCustomization, InterpreterOperation } from '../model/interpreter-customization.js';

/** A script and the customization it comes from (for messages). */
export interface SelectedScript {
  customization: string;
  script: string;
}

/** The scripts that apply to one apiVersion and kind. */
export interface KindScripts {
  single: Partial<Record<Exclude<InterpreterOperation, 'InterpretDependency'>, SelectedScript>>;
  dependencies: SelectedScript[];
  /** A content key of all of them. */
  key: string;
}

/** Returns `apiVersion kind`, the key customizations are selected by. */
export function targetKey(apiVersion: string, kind: string): string {
  return `${apiVersion} ${kind}`;
}

/** Returns the scripts for each targeted apiVersion and kind (the rules above). */
export function selectScripts(customizations: readonly InterpreterCustomization[]): Map<string, KindScripts> {
  const sorted = [...customizations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byKind = new Map<string, KindScripts>();
  for (const c of sorted) {
    const key = targetKey(c.target.apiVersion, c.target.kind);
    let kind = byKind.get(key);
    if (kind === undefined) byKind.set(key, (kind = { single: {}, dependencies: [], key: '' }));
    for (const [operation, script] of Object.entries(c.scripts) as [InterpreterOperation, string][]) {
      if (script === '') continue;
      if (operation === 'InterpretDependency') kind.dependencies.push({ customization: c.name, script });
      else kind.single[operation] ??= { customization: c.name, script };
    }
  }
  for (const kind of byKind.values()) kind.key = JSON.stringify([kind.single, kind.dependencies]);
  return byKind;
}
