// The limits of every request to a remote repository, from the environment (the same for the
// hub and the agent, and for a Pod, where env is the natural place):
//
//   GITFLEET_GIT_CONNECT_TIMEOUT   time to connect                 default 10s
//   GITFLEET_GIT_IDLE_TIMEOUT      longest silence once connected  default 30s
//   GITFLEET_GIT_FETCH_DEADLINE    longest one whole fetch         default 5m
//   GITFLEET_GIT_PUSH_DEADLINE     longest one whole push          default 5m
//   GITFLEET_GIT_LS_REFS_DEADLINE  longest one ls-refs probe       default 1m
//
// Values are durations like 30s, 500ms or 2m (a plain number is seconds).
import { defaultRemoteTimeouts, type RemoteTimeouts } from '../../adapters/remote/remote-timeouts.js';
import { ConfigError } from '../../core/model/config-error.js';
import { parseInterval } from '../parse-interval.js';

/** Returns the request limits from the environment, or throws naming the variable with a bad value. */
export function remoteTimeoutsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Required<RemoteTimeouts> {
  const defaults = defaultRemoteTimeouts();
  return {
    connectMs: readDuration(env, 'GITFLEET_GIT_CONNECT_TIMEOUT', defaults.connectMs),
    idleMs: readDuration(env, 'GITFLEET_GIT_IDLE_TIMEOUT', defaults.idleMs),
    fetchDeadlineMs: readDuration(env, 'GITFLEET_GIT_FETCH_DEADLINE', defaults.fetchDeadlineMs),
    pushDeadlineMs: readDuration(env, 'GITFLEET_GIT_PUSH_DEADLINE', defaults.pushDeadlineMs),
    lsRefsDeadlineMs: readDuration(env, 'GITFLEET_GIT_LS_REFS_DEADLINE', defaults.lsRefsDeadlineMs),
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
