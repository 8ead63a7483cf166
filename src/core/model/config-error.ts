// Why gitfleet refuses to start or to go on with the configuration it was given: flags,
// environment variables, a kubeconfig, or a FleetConfig that contradicts how the hub was started.
// Terminal: nothing changes until someone changes the configuration.
import { GitfleetError } from './gitfleet-error.js';

export type ConfigErrorCode =
  /** The FleetConfig's branchPrefix is not the one a remote hub mirrors (`--branch-prefix`). */
  | 'BranchPrefixMismatch'
  /** A secret that must be set is missing or empty (the webhook's). */
  | 'MissingSecret'
  /** An environment variable holds a value gitfleet cannot use. */
  | 'InvalidEnvironment'
  /** The kubeconfig lacks what the agent needs (the context asked for, its cluster). */
  | 'InvalidKubeconfig';

/** A configuration gitfleet cannot run with; the message names the setting first. */
export class ConfigError extends GitfleetError<ConfigErrorCode> {
  constructor(code: ConfigErrorCode, message: string) {
    super(message, { code, terminal: true });
  }
}
