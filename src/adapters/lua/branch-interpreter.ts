// The agent's interpreter: made from the customizations file the hub writes into the cluster
// branch (core/interpret/branch-customizations.ts), once per distinct file text.
import { parseBranchCustomizations } from '../../core/interpret/branch-customizations.js';
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import { InterpreterSession } from './interpreter-session.js';

/** Makes the interpreter of a branch's customizations file, reusing the last one for the same text. */
export class BranchInterpreter {
  private readonly session = new InterpreterSession();
  private last: { text: string; interpreter: ResourceInterpreter | undefined } | undefined;

  /** Returns the interpreter of the file's customizations (undefined: no file, or none in it); `warn` hears what does not parse. */
  async of(
    text: string | undefined,
    warn?: (message: string) => void,
  ): Promise<ResourceInterpreter | undefined> {
    if (text === undefined) return undefined;
    if (this.last?.text === text) return this.last.interpreter;
    const { customizations, errors } = parseBranchCustomizations(text);
    for (const error of errors) warn?.(`cluster branch: ${error}`);
    const interpreter = await this.session.interpreterOf(customizations);
    this.last = { text, interpreter };
    return interpreter;
  }
}
