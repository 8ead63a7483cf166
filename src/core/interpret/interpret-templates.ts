// The interpretation stage, before the render: for every template whose apiVersion and kind a
// customization targets, run the scripts the render needs from the template alone and keep
// their results on the template (Template.interpreted), where the stages read them:
//
// | script           | kept as                       | read by                                           |
// |------------------|-------------------------------|---------------------------------------------------|
// | GetReplicas      | interpreted.replicas          | the scheduler (bind-claims.ts: replicas to divide, |
// |                  |                               | the request per replica for the estimate)         |
// | GetDependencies  | interpreted.dependencies      | propagateDeps (place-followers.ts)                |
// | ReviseReplica    | interpreted.revisesReplicas   | the renderer, which calls it per cluster          |
// |                  |                               | (revise-template-replicas.ts)                     |
//
// A script that fails keeps its error on the template, which is then not rendered (the error
// names the customization, the operation and the object; the hub keeps the object's last
// rendered copy); the others render as before. A replica count that is not a whole number from
// 0 to 2^31-1 is such an error, whichever interpreter gave it.
// Templates no customization targets are the same objects as before, so the render memo keeps
// reusing their work. A template's interpretation is reused from the memo while the template
// object and its kind's scripts are the same.
import type { Fleet, Template, TemplateInterpretation } from '../model/fleet.js';
import type { KubeObject } from '../model/kube-object.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { DependentObjectReference, ResourceInterpreter } from '../model/resource-interpreter.js';
import type { LabelSelector } from '../model/selectors.js';
import { matchLabelSelector } from '../select/match-label-selector.js';
import { int32Problem } from './int32-problem.js';
import { replicaRequestOfRequirements } from './replica-request-of-requirements.js';

/** Each source template's interpreted copy and the scripts key it was made with. */
export type InterpretMemo = WeakMap<Template, { scriptsKey: string; template: Template }>;

/** Returns the fleet with its customized templates interpreted, and the memo for the next call. */
export function interpretTemplates(
  fleet: Fleet,
  memo?: InterpretMemo,
): { fleet: Fleet; memo: InterpretMemo } {
  const next: InterpretMemo = new WeakMap();
  const interpreter = fleet.interpreter;
  if (interpreter === undefined) return { fleet, memo: next };
  let changed = false;
  const templates = fleet.templates.map((template) => {
    const scriptsKey = interpreter.scriptsKey(template.ref.apiVersion, template.ref.kind);
    if (scriptsKey === '') return template;
    const last = memo?.get(template);
    const interpreted =
      last !== undefined && last.scriptsKey === scriptsKey
        ? last.template
        : { ...template, interpreted: interpretTemplate(template, scriptsKey, interpreter, fleet.templates) };
    next.set(template, { scriptsKey, template: interpreted });
    changed = true;
    return interpreted;
  });
  return { fleet: changed ? { ...fleet, templates } : fleet, memo: next };
}

function interpretTemplate(
  template: Template,
  scriptsKey: string,
  interpreter: ResourceInterpreter,
  all: readonly Template[],
): TemplateInterpretation {
  const { apiVersion, kind } = template.ref;
  const result: TemplateInterpretation = {
    scriptsKey,
    revisesReplicas: interpreter.hookEnabled(apiVersion, kind, 'ReviseReplica'),
  };
  // The dependencies are read even when the replicas fail: the followers of a held object stay
  // placed (a workload whose count is refused must not take its ConfigMap off the clusters).
  const error = readReplicas(template, interpreter, result);
  const dependencies = interpreter.getDependencies(template.object);
  if (dependencies !== undefined && !dependencies.ok) return { ...result, error: dependencies.error };
  if (dependencies?.ok) result.dependencies = resolveDependencies(template.object, dependencies.value, all);
  return error === undefined ? result : { ...result, error };
}

// Sets the interpretation's replicas from GetReplicas; returns the error when there is one.
function readReplicas(
  template: Template,
  interpreter: ResourceInterpreter,
  result: TemplateInterpretation,
): string | undefined {
  const replicas = interpreter.getReplicas(template.object);
  if (replicas === undefined) return undefined;
  if (!replicas.ok) return replicas.error;
  // Any interpreter's count is checked: one the scheduler cannot divide holds the object.
  const problem = int32Problem('replicas', replicas.value.replicas);
  if (problem !== undefined) return `${subjectOf(template)}: GetReplicas: ${problem}`;
  const request = replicaRequestOfRequirements(replicas.value.requirements);
  result.replicas = { replicas: replicas.value.replicas, ...(request ? { request } : {}) };
  return undefined;
}

function subjectOf(template: Template): string {
  const { kind, namespace, name } = template.ref;
  return `${kind}/${namespace ? `${namespace}/` : ''}${name}`;
}

// A reference by name is taken as it is (its namespace defaults to the template's); one by
// label selector stands for every template of that apiVersion and kind in that namespace whose
// labels it matches (Karmada's dependencies distributor lists them from the API server).
function resolveDependencies(
  object: KubeObject,
  references: readonly DependentObjectReference[],
  all: readonly Template[],
): ObjectRef[] {
  const own = object.metadata.namespace ?? '';
  const refs = new Map<string, ObjectRef>();
  const add = (ref: ObjectRef) => refs.set(`${ref.apiVersion}/${ref.kind}/${ref.namespace}/${ref.name}`, ref);
  for (const dep of references) {
    const namespace = dep.namespace ?? own;
    if (dep.name) {
      add({ apiVersion: dep.apiVersion, kind: dep.kind, namespace, name: dep.name });
      continue;
    }
    const selector = (dep.labelSelector ?? {}) as LabelSelector;
    for (const t of all) {
      if (t.ref.apiVersion !== dep.apiVersion || t.ref.kind !== dep.kind || t.ref.namespace !== namespace)
        continue;
      if (matchLabelSelector(selector, t.object.metadata.labels ?? {})) add(t.ref);
    }
  }
  return [...refs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ref]) => ref);
}
