// `gitfleet budget`'s command line: the fleet repository, the forge, and the timing flags of the
// hub, the agents and the dashboards under the names they have there (the agent's --interval is
// --agent-interval here, the dashboard's --dashboard-interval). Their defaults are those of the
// commands themselves, or of the forge's profile (forge-profile.ts), so `budget` prices what
// `hub`, `agent` and `ui` would run with.
import type { CommandSpec, ProfileDefaults } from '../command-line.js';
import { forgeFlag, forgeOf, forgeProfiles, profileDefaults } from '../forge-profile.js';
import { tokenFileFlag } from '../shared-flags.js';
import { agentSpec } from './agent-spec.js';
import { hubSpec } from './hub-spec.js';
import { uiSpec } from './ui-spec.js';

const hub = hubSpec.flags;
const agent = agentSpec.flags;
const duration = (help: string, fallback: string) =>
  ({ type: 'duration', value: 'DURATION', default: fallback, help }) as const;

/** `gitfleet budget`: its command line. */
export const budgetSpec = {
  name: 'budget',
  summary: "the Git traffic a fleet's settings cost each repository, against the forge's budget",
  positionals: [],
  flags: {
    repo: {
      type: 'string',
      value: 'PATH|URL',
      required: true,
      help: 'the fleet repository (its clusters and templates are counted): a local path or an http(s) URL',
    },
    ref: {
      type: 'string',
      value: 'REF',
      help: 'for a local path: read this commit instead of the files on disk',
    },
    clusters: {
      type: 'string',
      value: 'N',
      help: 'price this many clusters instead of those the repository registers',
    },
    forge: forgeFlag,
    interval: duration("the hub's --interval", hub.interval.default),
    webhook: { type: 'boolean', help: 'the hub has a push webhook (--webhook-port): a push is seen at once' },
    'cluster-monitor-period': duration(
      "the hub's --cluster-monitor-period",
      hub['cluster-monitor-period'].default,
    ),
    'cluster-monitor-grace-period': duration(
      "the hub's --cluster-monitor-grace-period",
      hub['cluster-monitor-grace-period'].default,
    ),
    'status-record-interval': {
      type: 'duration',
      value: 'DURATION',
      help: "the hub's --status-record-interval: its records of moved statuses, a push to the fleet repository each, at most this often (default: the profile's, else none)",
    },
    'agent-interval': duration("the agents' --interval", agent.interval.default),
    'branch-poll': duration("the agents' --branch-poll", agent['branch-poll'].default),
    'safety-poll': duration("the agents' --safety-poll, with the doorbell", '5m'),
    'doorbell-heartbeat': {
      type: 'duration',
      value: 'DURATION',
      help: "the agents' --doorbell-heartbeat: their heartbeat push while the doorbell answers (default: the profile's, else --safety-poll)",
    },
    'push-spread': {
      type: 'duration',
      value: 'DURATION',
      help: "the agents' --push-spread: without the doorbell's push slots, one push per this long at most (default: the profile's; none: unpaced)",
    },
    'status-lag': {
      type: 'duration',
      value: 'DURATION',
      help: 'the longest a status may wait for its push slot after its apply: with the doorbell, says how many status repositories that takes',
    },
    'fetch-spread': {
      type: 'duration',
      value: 'DURATION',
      help: 'the longest the last agent may wait for its turn to fetch after a source push: with the doorbell, says how many render repositories that takes',
    },
    'cluster-lease-duration': duration(
      "the agents' --cluster-lease-duration",
      agent['cluster-lease-duration'].default,
    ),
    'cluster-lease-renew-interval-fraction': {
      type: 'fraction',
      value: 'FRACTION',
      default: agent['cluster-lease-renew-interval-fraction'].default,
      help: "the agents' --cluster-lease-renew-interval-fraction",
    },
    'cluster-status-update-frequency': duration(
      "the agents' --cluster-status-update-frequency",
      agent['cluster-status-update-frequency'].default,
    ),
    dashboards: {
      type: 'string',
      value: 'N',
      default: '1',
      help: 'gitfleet ui and status --watch processes running',
    },
    'dashboard-interval': duration('their --interval', uiSpec.flags.interval.default),
    doorbell: {
      type: 'boolean',
      help: "the hub's doorbell is on (--notify-addr): agents poll at --safety-poll",
    },
    'status-repositories': {
      type: 'string',
      value: 'N',
      help: "status repositories the statuses and heartbeats are spread over (0: the fleet repository; default: the FleetConfig's spec.statusRepositories)",
    },
    'render-repositories': {
      type: 'string',
      value: 'N',
      help: "render repositories the cluster branches are spread over (0: the fleet repository; default: the FleetConfig's spec.renderRepositories)",
    },
    'fleet-pushes-per-hour': {
      type: 'string',
      value: 'N',
      default: '0',
      help: 'pushes to the source branch an hour, each taken to change every cluster',
    },
    'status-changes-per-hour': {
      type: 'string',
      value: 'N',
      default: '0',
      help: 'status writes per cluster an hour beside those pushes (health, facts)',
    },
    'token-file': tokenFileFlag,
    output: {
      type: 'string',
      short: 'o',
      choices: ['text', 'json'],
      default: 'text',
      help: 'print as text or JSON',
    },
  },
  notes: [
    "Counts what the loops send (docs/git-budget.md): each agent poll is one read, each heartbeat and status write one push. Prints every repository against the forge's budget and what to change when one is over.",
    "With --doorbell the hub paces the agents by the forge's budget (docs/git-budget.md#pacing): it prints what that costs (the fetch spread after a push, the status lag, a start's length), and with --status-lag the status repositories that lag needs, with --fetch-spread the render repositories.",
  ],
} as const satisfies CommandSpec;

/** The defaults `budget` takes from the forge's profile, under its own flag names. */
export const budgetDefaults: ProfileDefaults = (typed) => {
  const forge = forgeOf(typed);
  if (forge === undefined) return {};
  const doorbell = typed['doorbell'] === true;
  const h = profileDefaults(forge, 'hub', doorbell);
  const a = profileDefaults(forge, 'agent', doorbell);
  const { ui } = forgeProfiles[forge];
  const pick = (entries: [string, string | undefined][]) =>
    Object.fromEntries(entries.filter((e): e is [string, string] => e[1] !== undefined));
  return pick([
    ['interval', h['interval']],
    ['cluster-monitor-period', h['cluster-monitor-period']],
    ['cluster-monitor-grace-period', h['cluster-monitor-grace-period']],
    ['status-record-interval', h['status-record-interval']],
    ['agent-interval', a['interval']],
    ['branch-poll', a['branch-poll']],
    ['safety-poll', a['safety-poll']],
    ['cluster-lease-duration', a['cluster-lease-duration']],
    ['cluster-lease-renew-interval-fraction', a['cluster-lease-renew-interval-fraction']],
    ['cluster-status-update-frequency', a['cluster-status-update-frequency']],
    ['doorbell-heartbeat', a['doorbell-heartbeat']],
    ['push-spread', a['push-spread']],
    ['dashboard-interval', ui['interval']],
  ]);
};
