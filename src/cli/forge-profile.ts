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

/** One profile: per command, flag name → default (as typed). */
export type ForgeProfile = Readonly<Record<ProfiledCommand, Readonly<Record<string, string>>>>;

// The figures for 100 clusters on one repository, idle (docs/git-budget.md works them out):
// github: 100 × (1/30 s + 1/5 min) ≈ 3.7 reads/s of 15; 100 heartbeats / 20 min = 5 pushes/min
// of 6, so the heartbeat (lease 40 min × 0.5) must be this slow without status repositories or
// the doorbell's beacons, and the grace period above two missed heartbeats: NotReady in ~47 min.
// gitlab: 100 × (3 + 0.2) reads/min + 50 heartbeats/min ≈ 372 operations/min of 600.
// `safety-poll` is the doorbell lane's flag: wired where the doorbell is.
/** The profiles, one object each. */
export const forgeProfiles: Readonly<Record<Forge, ForgeProfile>> = {
  github: {
    hub: {
      interval: '1m',
      'cluster-monitor-period': '1m',
      'cluster-monitor-grace-period': '45m',
      'cluster-startup-grace-period': '50m',
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
    },
    ui: { interval: '1m' },
    status: { interval: '1m' },
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
    },
    ui: { interval: '30s' },
    status: { interval: '30s' },
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
    return forge === undefined ? {} : forgeProfiles[forge][command];
  };
}
