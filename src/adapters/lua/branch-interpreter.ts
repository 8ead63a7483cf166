// The agent's interpreter: made from the customizations file the hub writes into the cluster
// branch (core/interpret/branch-customizations.ts), once per distinct file text.
import { parseBranchCustomizations } from '../../core/interpret/branch-customizations.js';
import type { InterpreterCustomization } from '../../core/model/interpreter-customization.js';
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import { InterpreterSession } from './interpreter-session.js';

/** Makes the interpreter of a branch's customizations file, reusing the last one for the same text. */
export class BranchInterpreter {
  private readonly session = new InterpreterSession();
  private last: { text: string; customizations: InterpreterCustomization[] } | undefined;

  /**
   * Returns the interpreter of the file's customizations (undefined: no file, or none in it),
   * its pass budget whole again: call once per pass. `warn` hears what does not parse.
   */
  async of(
    text: string | undefined,
    warn?: (message: string) => void,
  ): Promise<ResourceInterpreter | undefined> {
    if (text === undefined) return undefined;
    if (this.last?.text !== text) {
      const { customizations, errors } = parseBranchCustomizations(text);
      for (const error of errors) warn?.(`cluster branch: ${error}`);
      this.last = { text, customizations };
    }
    return this.session.interpreterOf(this.last.customizations);
  }
}
