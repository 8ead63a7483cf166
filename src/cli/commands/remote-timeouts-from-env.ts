// The limits of every request to a remote repository, from the environment (the same for the
// hub and the agent, and for a Pod, where env is the natural place):
//
//   GITFLEET_GIT_CONNECT_TIMEOUT   time to connect                 default 10s
//   GITFLEET_GIT_IDLE_TIMEOUT      longest silence once connected  default 30s
//
// Values are durations like 30s, 500ms or 2m (a plain number is seconds).
import { defaultRemoteTimeouts, type RemoteTimeouts } from '../../adapters/remote/remote-timeouts.js';
import { ConfigError } from '../../core/model/config-error.js';
import { parseInterval } from '../parse-interval.js';

/** Returns the request limits from the environment, or throws naming the variable with a bad value. */
export function remoteTimeoutsFromEnv(env: Readonly<Record<string, string | undefined>>): RemoteTimeouts {
  const defaults = defaultRemoteTimeouts();
  return {
    connectMs: readDuration(env, 'GITFLEET_GIT_CONNECT_TIMEOUT', defaults.connectMs),
    idleMs: readDuration(env, 'GITFLEET_GIT_IDLE_TIMEOUT', defaults.idleMs),
  };
}

function readDuration(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const ms = parseInterval(text);
  if (ms === undefined)
    throw new ConfigError(
      'InvalidEnvironment',
      `$${name}: must be a duration like 30s, 5m or 500ms, not '${text}'`,
    );
  return ms;
}
