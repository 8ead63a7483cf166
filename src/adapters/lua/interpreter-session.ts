// The resource interpreter of one process: the Lua runtime is loaded once (it is a WebAssembly
// module, loaded asynchronously) and every loaded fleet gets an interpreter for its
// customizations, made again only when they change, before the render reads the fleet.
import type { Fleet } from '../../core/model/fleet.js';
import type { InterpreterCustomization } from '../../core/model/interpreter-customization.js';
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import { interpretTemplates, type InterpretMemo } from '../../core/interpret/interpret-templates.js';
import { createLuaInterpreter, type LuaInterpreterOptions } from './lua-interpreter.js';
import { LuaRuntime } from './lua-runtime.js';

/** Makes and keeps the interpreter of a process's fleets. */
export class InterpreterSession {
  private runtime: Promise<LuaRuntime> | undefined;
  private made: { key: string; interpreter: ResourceInterpreter; problems: string[] } | undefined;
  private memo: InterpretMemo | undefined;

  constructor(private readonly options: Omit<LuaInterpreterOptions, 'runtime'> = {}) {}

  /**
   * Returns the fleet with its interpreter set and its customized templates interpreted
   * (core/interpret/interpret-templates.ts), and one message per script that does not compile.
   * A fleet without customizations comes back as it is.
   */
  async attach(fleet: Fleet): Promise<{ fleet: Fleet; problems: string[] }> {
    const customizations = fleet.interpreterCustomizations ?? [];
    if (customizations.length === 0) return { fleet, problems: [] };
    const made = await this.interpreterFor(customizations);
    const interpreted = interpretTemplates({ ...fleet, interpreter: made.interpreter }, this.memo);
    this.memo = interpreted.memo;
    return { fleet: interpreted.fleet, problems: made.problems };
  }

  /** Returns an interpreter for customizations alone (the agent's: it has no fleet). */
  async interpreterOf(
    customizations: readonly InterpreterCustomization[],
  ): Promise<ResourceInterpreter | undefined> {
    return customizations.length === 0 ? undefined : (await this.interpreterFor(customizations)).interpreter;
  }

  private async interpreterFor(customizations: readonly InterpreterCustomization[]) {
    const key = JSON.stringify(customizations.map((c) => [c.name, c.target, c.scripts]));
    if (this.made?.key === key) return this.made;
    this.runtime ??= LuaRuntime.create();
    const runtime = await this.runtime;
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
