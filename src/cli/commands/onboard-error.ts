// Why `gitfleet cluster join` or `cluster leave` refused (docs/onboarding.md); the message names
// the cluster, the file or the directory first. Terminal: the same input fails the same way.
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type OnboardErrorCode =
  /** The fleet at the source branch does not load: a change on top of it could not be checked. */
  | 'FleetDoesNotLoad'
  /** join: a cluster of that name is registered already. */
  | 'ClusterExists'
  /** leave: no cluster of that name is registered. */
  | 'ClusterNotFound'
  /** join: the registration written would not load (a label the loader refuses). */
  | 'RegistrationInvalid'
  /** join: the private key would be written inside the fleet repository. */
  | 'KeyInsideFleetRepository'
  /** The work tree's copy of the file the change writes differs from the source branch's (untracked or edited). */
  | 'PathDirty';

/** A cluster join or leave that cannot be proposed as asked. */
export class OnboardError extends GitfleetError<OnboardErrorCode> {
  constructor(code: OnboardErrorCode, message: string) {
    super(message, { code, terminal: true });
  }
}
