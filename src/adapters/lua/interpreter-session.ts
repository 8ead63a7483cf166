// The resource interpreter of one process: the Lua runtime is started once (worker threads,
// lua-worker-runtime.ts) and every loaded fleet gets an interpreter for its customizations, made
// again only when they change, before the render reads the fleet. Each attach is a pass: its
// Lua time is bounded as a whole (lua-calls.ts), and the scripts the interpretation stage needs
// (GetReplicas, GetDependencies) run ahead in the workers, so the event loop keeps answering.
import type { Fleet } from '../../core/model/fleet.js';
import type { InterpreterCustomization } from '../../core/model/interpreter-customization.js';
import type { InterpretRequest, ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import { interpretTemplates, type InterpretMemo } from '../../core/interpret/interpret-templates.js';
import {
  createLuaInterpreter,
  type LuaInterpreterOptions,
  type LuaResourceInterpreter,
} from './lua-interpreter.js';
import { LuaWorkerRuntime, type LuaRunner } from './lua-worker-runtime.js';

/** Makes and keeps the interpreter of a process's fleets. */
export class InterpreterSession {
  private runtime: LuaRunner | undefined;
  private made: { key: string; interpreter: LuaResourceInterpreter; problems: string[] } | undefined;
  private memo: InterpretMemo | undefined;

  constructor(private readonly options: LuaInterpreterOptions = {}) {}

  /**
   * Returns the fleet with its interpreter set and its customized templates interpreted
   * (core/interpret/interpret-templates.ts), and one message per script that does not compile.
   * A fleet without customizations comes back as it is.
   */
  async attach(fleet: Fleet): Promise<{ fleet: Fleet; problems: string[] }> {
    const customizations = fleet.interpreterCustomizations ?? [];
    if (customizations.length === 0) return { fleet, problems: [] };
    const made = await this.interpreterFor(customizations);
    made.interpreter.startPass();
    await made.interpreter.prepare(this.templateRequests(fleet, made.interpreter));
    const interpreted = interpretTemplates({ ...fleet, interpreter: made.interpreter }, this.memo);
    this.memo = interpreted.memo;
    return { fleet: interpreted.fleet, problems: made.problems };
  }

  /**
   * Returns an interpreter for customizations alone (the agent's: it has no fleet), its pass
   * budget whole again: call once per pass.
   */
  async interpreterOf(
    customizations: readonly InterpreterCustomization[],
  ): Promise<ResourceInterpreter | undefined> {
    if (customizations.length === 0) return undefined;
    const { interpreter } = await this.interpreterFor(customizations);
    interpreter.startPass();
    return interpreter;
  }

  // The calls interpretTemplates will make: those of customized templates not in its memo.
  private templateRequests(fleet: Fleet, interpreter: ResourceInterpreter): InterpretRequest[] {
    const requests: InterpretRequest[] = [];
    for (const template of fleet.templates) {
      const key = interpreter.scriptsKey(template.ref.apiVersion, template.ref.kind);
      if (key === '' || this.memo?.get(template)?.scriptsKey === key) continue;
      requests.push({ operation: 'InterpretReplica', object: template.object });
      requests.push({ operation: 'InterpretDependency', object: template.object });
    }
    return requests;
  }

  private async interpreterFor(customizations: readonly InterpreterCustomization[]) {
    const key = JSON.stringify(customizations.map((c) => [c.name, c.target, c.scripts]));
    if (this.made?.key === key) return this.made;
    const runtime = (this.runtime ??= this.options.runtime ?? new LuaWorkerRuntime());
    const { interpreter, problems } = await createLuaInterpreter(customizations, {
      ...this.options,
      runtime,
    });
    const messages = problems.map(
      (p) =>
        `ResourceInterpreterCustomization/${p.customization}: ${p.operation}: the script does not compile: ${p.message}`,
    );
    this.made = { key, interpreter, problems: messages };
    return this.made;
  }
}
