// NotificationPolicy (gitfleet.io/v1alpha1) in the fleet repo: loaded into
// Fleet.notificationPolicies, validated with errors naming the file, the policy and the field;
// secrets are never taken from the repository (a chat URL in it is refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileOf, mustFail, mustLoad } from './documents.js';

const policy = (spec: unknown, name = 'ops') => ({
  apiVersion: 'gitfleet.io/v1alpha1',
  kind: 'NotificationPolicy',
  metadata: { name },
  spec,
});

const good = {
  receivers: [
    { name: 'hook', type: 'webhook', urlFile: 'hook-url', hmacKeyFile: 'hook-key' },
    { name: 'chat', type: 'slack', secretRef: { name: 'notify', key: 'slack-url' } },
  ],
  routes: [
    {
      events: ['RolloutHalted', 'ClusterNotReady'],
      severity: 'warning',
      clusters: { selector: { matchLabels: { env: 'prod' } } },
      namespaces: ['shop'],
      receivers: ['hook', 'chat'],
    },
    { events: ['*'], receivers: ['hook'] },
  ],
};

test('A policy is loaded with its receivers and routes, defaults filled in, and is no template.', () => {
  const fleet = mustLoad([fileOf('notify/ops.yaml', policy(good))]);
  assert.deepEqual(fleet.notificationPolicies, [
    {
      name: 'ops',
      receivers: [
        { name: 'hook', type: 'webhook', url: { type: 'file', file: 'hook-url' }, hmacKeyFile: 'hook-key' },
        { name: 'chat', type: 'slack', url: { type: 'secret', name: 'notify', key: 'slack-url' } },
      ],
      routes: [
        {
          events: ['RolloutHalted', 'ClusterNotReady'],
          severity: 'warning',
          clusters: { matchLabels: { env: 'prod' } },
          namespaces: ['shop'],
          receivers: ['hook', 'chat'],
        },
        { events: ['*'], severity: 'info', namespaces: [], receivers: ['hook'] },
      ],
      source: { file: 'notify/ops.yaml', index: 0, line: 1 },
    },
  ]);
  assert.deepEqual(fleet.templates, []);
});

test('A forge receiver is loaded with its repository, its API base (defaulted for GitHub and GitLab), its token and its context.', () => {
  const spec = {
    receivers: [
      { name: 'gh', type: 'github', repository: 'fleet-team/fleet', tokenFile: 'gh-token' },
      {
        name: 'tea',
        type: 'gitea',
        repository: 'ops/fleet',
        url: 'https://git.example.com/api/v1/',
        secretRef: { name: 'forge', key: 'token' },
        context: 'fleet/prod',
      },
      { name: 'lab', type: 'gitlab', repository: 'group/sub/fleet', tokenFile: 'lab-token' },
    ],
    routes: [{ events: ['*'], receivers: ['gh', 'tea', 'lab'] }],
  };
  const fleet = mustLoad([fileOf('notify/ops.yaml', policy(spec))]);
  assert.deepEqual(fleet.notificationPolicies?.[0]?.receivers, [
    {
      name: 'gh',
      type: 'github',
      repository: 'fleet-team/fleet',
      apiUrl: 'https://api.github.com',
      token: { type: 'file', file: 'gh-token' },
      context: 'gitfleet',
    },
    {
      name: 'tea',
      type: 'gitea',
      repository: 'ops/fleet',
      apiUrl: 'https://git.example.com/api/v1',
      token: { type: 'secret', name: 'forge', key: 'token' },
      context: 'fleet/prod',
    },
    {
      name: 'lab',
      type: 'gitlab',
      repository: 'group/sub/fleet',
      apiUrl: 'https://gitlab.com/api/v4',
      token: { type: 'file', file: 'lab-token' },
      context: 'gitfleet',
    },
  ]);
});

test('A fleet without policies has none.', () => {
  assert.equal(mustLoad([]).notificationPolicies, undefined);
});

const hook = (extra: Record<string, unknown>) => ({ name: 'hook', type: 'webhook', ...extra });
const route = { events: ['*'], receivers: ['hook'] };
const errors: { name: string; spec: unknown; message: RegExp }[] = [
  {
    name: 'A Slack URL written in the policy is refused: it holds its credential.',
    spec: {
      receivers: [{ name: 'chat', type: 'slack', url: 'https://hooks.slack.com/services/T/B/x' }],
      routes: [{ events: ['*'], receivers: ['chat'] }],
    },
    message:
      /^NotificationPolicy\/ops: spec\.receivers\[0\]\.url: a slack URL holds its credential: name a file \(urlFile\) or a Secret \(secretRef\), never the URL$/,
  },
  {
    name: 'A receiver needs exactly one of url, urlFile and secretRef.',
    spec: { receivers: [hook({ url: 'https://x.example', urlFile: 'f' })], routes: [route] },
    message: /spec\.receivers\[0\]\.url\|urlFile\|secretRef: give one of them, not url and urlFile$/,
  },
  {
    name: 'A file name that leaves the secrets directory is refused.',
    spec: { receivers: [hook({ urlFile: '../etc/passwd' })], routes: [route] },
    message:
      /spec\.receivers\[0\]\.urlFile: "\.\.\/etc\/passwd": must be a file name of --notifications-secrets-dir/,
  },
  {
    name: 'An HMAC key is for webhooks only.',
    spec: {
      receivers: [{ name: 'chat', type: 'teams', urlFile: 'teams', hmacKeyFile: 'k' }],
      routes: [{ events: ['*'], receivers: ['chat'] }],
    },
    message: /spec\.receivers\[0\]\.hmacKeyFile: only a webhook signs its body, not a teams$/,
  },
  {
    name: 'An unknown receiver type is refused.',
    spec: {
      receivers: [{ name: 'pager', type: 'pagerduty', urlFile: 'p' }],
      routes: [{ events: ['*'], receivers: ['pager'] }],
    },
    message:
      /spec\.receivers\[0\]\.type: unsupported value "pagerduty": must be one of webhook, slack, teams, github, gitlab, gitea$/,
  },
  {
    name: 'A route naming an event type that does not exist is refused.',
    spec: { receivers: [hook({ urlFile: 'f' })], routes: [{ events: ['RolloutHalt'], receivers: ['hook'] }] },
    message: /spec\.routes\[0\]\.events\[0\]: "RolloutHalt" is no event type/,
  },
  {
    name: 'A route naming a receiver the policy does not have is refused.',
    spec: { receivers: [hook({ urlFile: 'f' })], routes: [{ events: ['*'], receivers: ['hok'] }] },
    message: /spec\.routes\[0\]\.receivers\[0\]: "hok" is no receiver of this policy$/,
  },
  {
    name: 'A policy without routes is refused.',
    spec: { receivers: [hook({ urlFile: 'f' })] },
    message: /spec\.routes: is required and must have at least one route$/,
  },
  {
    name: 'A forge receiver needs its repository.',
    spec: {
      receivers: [{ name: 'gh', type: 'github', tokenFile: 't' }],
      routes: [{ events: ['*'], receivers: ['gh'] }],
    },
    message: /spec\.receivers\[0\]\.repository: is required$/,
  },
  {
    name: 'A forge receiver needs its token, from a file or a Secret.',
    spec: {
      receivers: [{ name: 'gh', type: 'github', repository: 'o/n' }],
      routes: [{ events: ['*'], receivers: ['gh'] }],
    },
    message: /spec\.receivers\[0\]\.tokenFile\|secretRef: is required: the API token$/,
  },
  {
    name: 'A Gitea receiver needs its API base: Gitea has no one host.',
    spec: {
      receivers: [{ name: 'tea', type: 'gitea', repository: 'o/n', tokenFile: 't' }],
      routes: [{ events: ['*'], receivers: ['tea'] }],
    },
    message: /spec\.receivers\[0\]\.url: is required for a gitea receiver/,
  },
  {
    name: 'A forge token file that leaves the secrets directory is refused.',
    spec: {
      receivers: [{ name: 'gh', type: 'github', repository: 'o/n', tokenFile: '/etc/token' }],
      routes: [{ events: ['*'], receivers: ['gh'] }],
    },
    message:
      /spec\.receivers\[0\]\.tokenFile: "\/etc\/token": must be a file name of --notifications-secrets-dir/,
  },
  {
    name: 'A repository is for forge receivers only.',
    spec: { receivers: [hook({ urlFile: 'f', repository: 'o/n' })], routes: [route] },
    message:
      /spec\.receivers\[0\]\.repository: only a github, gitlab or gitea receiver has it, not a webhook$/,
  },
  {
    name: 'Two receivers of one name are refused.',
    spec: { receivers: [hook({ urlFile: 'f' }), hook({ urlFile: 'g' })], routes: [route] },
    message: /spec\.receivers\[1\]\.name: "hook" is named twice$/,
  },
];

for (const { name, spec, message } of errors)
  test(name, () => {
    const failed = mustFail([fileOf('notify/ops.yaml', policy(spec))]);
    assert.ok(
      failed.some((e) => e.file === 'notify/ops.yaml' && message.test(e.message)),
      failed.map((e) => `${e.code} ${e.message}`).join('\n'),
    );
  });

test('An unknown field of a policy is an error naming it, as for every gitfleet kind.', () => {
  const failed = mustFail([fileOf('notify/ops.yaml', policy({ ...good, reciever: [] }))]);
  assert.ok(
    failed.some((e) => e.code === 'UnknownField' && /spec\.reciever/.test(e.message)),
    JSON.stringify(failed),
  );
});
