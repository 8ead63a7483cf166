// Forge profiles: the defaults of every timing flag per Git host, so that a fleet of 100
// clusters on one repository stays within that host's budget (src/core/budget, docs/git-budget.md
// has the table with what each costs in latency). `--forge` picks the profile; without it the
// --repo URL's host does (github.com: github; gitlab.com or a host naming gitlab: gitlab; local
// paths and other hosts: generic). generic is empty on purpose: today's defaults, exactly. Any
// flag typed wins over its profile's default.
import { forgeOfRepo, forges, type Forge } from '../core/budget/forge-budget.js';
import type { FlagSpec, ProfileDefaults } from './command-line.js';

/** The commands a profile sets defaults for. */
export type ProfiledCommand = 'hub' | 'agent' | 'ui' | 'status';

/** Flag name → default (as typed), per command. */
type Defaults = Readonly<Record<ProfiledCommand, Readonly<Record<string, string>>>>;

/**
 * One profile: per command, flag name → default (as typed); `doorbell`, what changes when the
 * hub's doorbell is on (hub `--notify-addr`, agent `--notify-url`): liveness rides on its
 * beacons, so the Git heartbeat slows and the grace period comes back to Karmada's 40 s.
 */
export type ForgeProfile = Defaults & { doorbell?: Partial<Defaults> };

// The figures for 100 clusters on one repository, idle (docs/git-budget.md works them out):
// github: 100 × (1/30 s + 1/5 min) ≈ 3.7 reads/s of 15; 100 heartbeats / 20 min = 5 pushes/min
// of 6, so the heartbeat (lease 40 min × 0.5) must be this slow without status repositories or
// the doorbell's beacons, and the grace period above two missed heartbeats: NotReady in ~47 min.
// gitlab: 100 × (3 + 0.2) reads/min + 50 heartbeats/min ≈ 372 operations/min of 600.
// `safety-poll` is the agent's slow poll while the hub's doorbell answers (--notify-url);
// `push-spread` paces an agent's pushes when the hub gives no push slot (docs/git-budget.md#pacing):
// at most one a heartbeat period, so that statuses after a source push cost what heartbeats do.
// With the doorbell (docs/git-budget.md#profiles-with-the-doorbell): beacons every 10 s (a 40 s
// lease renewed at a quarter, as Karmada's), a Git heartbeat every 4 h (github) or 1 h
// (gitlab) while the doorbell answers, and the hub judges at 40 s, looking every 10 s.
/** The hub's monitor with the doorbell: beacons reach it at once, so Karmada's grace period holds again. */
const withBeacons = {
  'cluster-monitor-period': '10s',
  'cluster-monitor-grace-period': '40s',
  'cluster-startup-grace-period': '60s',
} as const;

/** The profiles, one object each. */
export const forgeProfiles: Readonly<Record<Forge, ForgeProfile>> = {
  github: {
    hub: {
      interval: '1m',
      'cluster-monitor-period': '1m',
      'cluster-monitor-grace-period': '45m',
      'cluster-startup-grace-period': '50m',
      // The hub's records of moved statuses: at most 2 pushes a minute of the fleet repository's 6.
      'status-record-interval': '30s',
    },
    agent: {
      interval: '5m',
      'branch-poll': '30s',
      'safety-poll': '5m',
      // The lease stays under the hub's grace period, as Karmada's do (40 s each): an agent cut off
      // from Git for longer than its lease treats its return as one the hub may have judged.
      'cluster-lease-duration': '40m',
      'cluster-lease-renew-interval-fraction': '0.5',
      'cluster-status-update-frequency': '5m',
      'push-spread': '20m',
    },
    ui: { interval: '1m' },
    status: { interval: '1m' },
    doorbell: {
      hub: withBeacons,
      agent: {
        'cluster-lease-duration': '40s',
        'cluster-lease-renew-interval-fraction': '0.25',
        'doorbell-heartbeat': '4h',
      },
    },
  },
  gitlab: {
    hub: {
      interval: '30s',
      'cluster-monitor-period': '30s',
      'cluster-monitor-grace-period': '10m',
      'cluster-startup-grace-period': '15m',
    },
    agent: {
      interval: '5m',
      'branch-poll': '20s',
      'safety-poll': '5m',
      'cluster-lease-duration': '8m',
      'cluster-lease-renew-interval-fraction': '0.25',
      'cluster-status-update-frequency': '1m',
      'push-spread': '2m',
    },
    ui: { interval: '30s' },
    status: { interval: '30s' },
    doorbell: {
      hub: withBeacons,
      agent: {
        'cluster-lease-duration': '40s',
        'cluster-lease-renew-interval-fraction': '0.25',
        'doorbell-heartbeat': '1h',
      },
    },
  },
  generic: { hub: {}, agent: {}, ui: {}, status: {} },
};

/** `--forge github|gitlab|generic` (hub, agent, ui, status, budget). */
export const forgeFlag = {
  type: 'string',
  choices: forges,
  help: "the Git host's profile of timing defaults (default: from the --repo URL's host; generic for local paths and other hosts; see docs/git-budget.md)",
} as const satisfies FlagSpec;

/** Returns the forge of a command line: --forge when typed and known, else the --repo URL's host. */
export function forgeOf(typed: Readonly<Record<string, string | boolean | undefined>>): Forge | undefined {
  const forge = typed['forge'];
  if (typeof forge === 'string')
    return (forges as readonly string[]).includes(forge) ? (forge as Forge) : undefined;
  const repo = typed['repo'];
  return forgeOfRepo(typeof repo === 'string' ? repo : '');
}

/** Returns the defaults `command` takes from the forge profile of its command line. */
export function forgeDefaults(command: ProfiledCommand): ProfileDefaults {
  return (typed) => {
    const forge = forgeOf(typed);
    // An unknown --forge gets no profile: the parser names it as a bad value.
    if (forge === undefined) return {};
    return profileDefaults(forge, command, typed[doorbellFlag[command] ?? ''] !== undefined);
  };
}

/** The flag that turns a command's doorbell on. */
const doorbellFlag: Partial<Record<ProfiledCommand, string>> = { hub: 'notify-addr', agent: 'notify-url' };

/** Returns a profile's defaults for a command, with or without the doorbell. */
export function profileDefaults(
  forge: Forge,
  command: ProfiledCommand,
  doorbell: boolean,
): Readonly<Record<string, string>> {
  const profile = forgeProfiles[forge];
  return { ...profile[command], ...(doorbell ? profile.doorbell?.[command] : {}) };
}
