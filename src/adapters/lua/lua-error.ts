// Why the Lua sandbox could not run or could not pass a value: the subject (the sandbox, the kube
// library's function, the value) first in the message. A script's own failure is not thrown: it
// comes back as data (lua-runtime.ts LuaOutcome); these are the failures of the machinery around it.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type LuaErrorCode =
  /** No Lua state could be made within the memory budget: a later attempt may find the memory. */
  | 'LuaStateUnavailable'
  /** The sandbox's prelude or libraries failed to load into a new state. */
  | 'LuaSandboxFailed'
  /** A function of the `kube` library was called with arguments it does not take. */
  | 'LuaBadArgument'
  /** A value cannot cross between JavaScript and Lua (nested too deeply, a function, a sparse array, …). */
  | 'LuaValueNotConvertible';

/** Why the Lua sandbox could not run a call, or a value could not cross into or out of it. */
export class LuaError extends GitfleetError<LuaErrorCode> {
  constructor(code: LuaErrorCode, message: string) {
    super(message, { code, terminal: code !== 'LuaStateUnavailable' });
  }
}
