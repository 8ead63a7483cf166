import type { SourceLocation } from './source-location.js';

/**
 * The operations a ResourceInterpreterCustomization can script, by the rule field that holds
 * each script (config.karmada.io/v1alpha1 CustomizationRules) and the Lua function it defines.
 *
 * | operation             | rule field               | Lua function    |
 * |-----------------------|--------------------------|-----------------|
 * | Retain                | retention                | Retain          |
 * | InterpretReplica      | replicaResource          | GetReplicas     |
 * | InterpretComponent    | componentResource        | GetComponents   |
 * | ReviseReplica         | replicaRevision          | ReviseReplica   |
 * | InterpretStatus       | statusReflection         | ReflectStatus   |
 * | AggregateStatus       | statusAggregation        | AggregateStatus |
 * | InterpretHealth       | healthInterpretation     | InterpretHealth |
 * | InterpretDependency   | dependencyInterpretation | GetDependencies |
 */
export type InterpreterOperation =
  | 'Retain'
  | 'InterpretReplica'
  | 'InterpretComponent'
  | 'ReviseReplica'
  | 'InterpretStatus'
  | 'AggregateStatus'
  | 'InterpretHealth'
  | 'InterpretDependency';

/** Each operation's rule field and Lua function (the table above). */
export const interpreterOperations: Readonly<
  Record<InterpreterOperation, { rule: string; luaFunction: string }>
> = {
  Retain: { rule: 'retention', luaFunction: 'Retain' },
  InterpretReplica: { rule: 'replicaResource', luaFunction: 'GetReplicas' },
  InterpretComponent: { rule: 'componentResource', luaFunction: 'GetComponents' },
  ReviseReplica: { rule: 'replicaRevision', luaFunction: 'ReviseReplica' },
  InterpretStatus: { rule: 'statusReflection', luaFunction: 'ReflectStatus' },
  AggregateStatus: { rule: 'statusAggregation', luaFunction: 'AggregateStatus' },
  InterpretHealth: { rule: 'healthInterpretation', luaFunction: 'InterpretHealth' },
  InterpretDependency: { rule: 'dependencyInterpretation', luaFunction: 'GetDependencies' },
};

/** A ResourceInterpreterCustomization (config.karmada.io/v1alpha1, cluster-scoped), validated. */
export interface InterpreterCustomization {
  name: string;
  /** The exact apiVersion and kind whose objects it interprets (no version matching). */
  target: { apiVersion: string; kind: string };
  /** Operation → its Lua script, for the rules the customization has (an empty script is kept). */
  scripts: Partial<Record<InterpreterOperation, string>>;
  source: SourceLocation;
}
