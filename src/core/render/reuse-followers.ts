// The render memo's `dependencies` and `followers` entries (incremental-render.ts): what a
// template depends on is last time's for the same template object, and a follower binding equal
// to last time's (by value) is last time's object, so the stages after it reuse their work.
import type { Binding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';
import type { ObjectRef } from '../model/object-ref.js';
import { findDependencies } from '../follow/find-dependencies.js';
import type { DependenciesMemo, FollowerMemo } from './render-memo.js';

/** Returns what the template depends on: last time's for the same template, else found again. */
export function reuseDependencies(
  template: Template,
  memo: { kept: ReadonlyMap<string, DependenciesMemo> | undefined; into: Map<string, DependenciesMemo> },
): readonly ObjectRef[] {
  const kept = memo.kept?.get(template.key);
  const entry =
    kept?.template === template ? kept : { template, dependencies: findDependencies(template.object) };
  memo.into.set(template.key, entry);
  return entry.dependencies;
}

/** Returns last time's object for a follower binding equal to it, else the binding. */
export function reuseFollower(
  binding: Binding,
  memo: { kept: ReadonlyMap<string, FollowerMemo> | undefined; into: Map<string, FollowerMemo> },
): Binding {
  const json = JSON.stringify(binding);
  const kept = memo.kept?.get(binding.key);
  const entry = kept && kept.json === json ? kept : { binding, json };
  memo.into.set(binding.key, entry);
  return entry.binding;
}
