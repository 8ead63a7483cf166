import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepCopy, getPath, type KubeObject } from '../../../src/core/model/kube-object.js';
import type { CommandArgsOverrider } from '../../../src/core/model/override-policy.js';
import { applyCommandArgsOverrider } from '../../../src/core/override/command-args-overrider.js';
import { aConfigMap } from '../builders.js';
import { aWorkload } from './workload-builders.js';

function aDeploymentWith(containers: Record<string, unknown>[]): KubeObject {
  return aWorkload('apps/v1', 'Deployment', { template: { spec: { containers } } });
}

function containersOf(object: KubeObject): unknown {
  return getPath(object, ['spec', 'template', 'spec', 'containers']);
}

const cases: {
  name: string;
  given: {
    containers: Record<string, unknown>[];
    overrider: CommandArgsOverrider;
    target: 'command' | 'args';
  };
  want: unknown;
}[] = [
  {
    name: 'Add appends to the command of the named container.',
    given: {
      containers: [{ name: 'app', command: ['run'] }],
      overrider: { containerName: 'app', operator: 'add', value: ['--x', '--y'] },
      target: 'command',
    },
    want: [{ name: 'app', command: ['run', '--x', '--y'] }],
  },
  {
    name: 'Add to a container without args creates them.',
    given: {
      containers: [{ name: 'app' }],
      overrider: { containerName: 'app', operator: 'add', value: ['--v=2'] },
      target: 'args',
    },
    want: [{ name: 'app', args: ['--v=2'] }],
  },
  {
    name: 'Remove deletes every element equal to any of the values.',
    given: {
      containers: [{ name: 'app', args: ['a', 'b', 'a', 'c'] }],
      overrider: { containerName: 'app', operator: 'remove', value: ['a', 'c'] },
      target: 'args',
    },
    want: [{ name: 'app', args: ['b'] }],
  },
  {
    name: 'Remove from a container without args leaves an empty list, as Karmada does.',
    given: {
      containers: [{ name: 'app' }],
      overrider: { containerName: 'app', operator: 'remove', value: ['a'] },
      target: 'args',
    },
    want: [{ name: 'app', args: [] }],
  },
  {
    name: 'Only containers with the name are changed, all of them.',
    given: {
      containers: [
        { name: 'app', command: ['a'] },
        { name: 'sidecar', command: ['s'] },
        { name: 'app', command: ['b'] },
      ],
      overrider: { containerName: 'app', operator: 'add', value: ['x'] },
      target: 'command',
    },
    want: [
      { name: 'app', command: ['a', 'x'] },
      { name: 'sidecar', command: ['s'] },
      { name: 'app', command: ['b', 'x'] },
    ],
  },
  {
    name: 'A container name that matches nothing changes nothing.',
    given: {
      containers: [{ name: 'app', command: ['a'] }],
      overrider: { containerName: 'other', operator: 'add', value: ['x'] },
      target: 'command',
    },
    want: [{ name: 'app', command: ['a'] }],
  },
  {
    name: 'The command and the args are separate lists.',
    given: {
      containers: [{ name: 'app', command: ['a'], args: ['b'] }],
      overrider: { containerName: 'app', operator: 'add', value: ['x'] },
      target: 'args',
    },
    want: [{ name: 'app', command: ['a'], args: ['b', 'x'] }],
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const object = aDeploymentWith(given.containers);
    const before = deepCopy(object);
    const got = applyCommandArgsOverrider(object, given.overrider, given.target);
    assert.ok(got.ok, got.ok ? '' : got.error);
    assert.deepEqual(containersOf(got.object), want);
    assert.deepEqual(object, before, 'the template is not changed');
  });
}

test('The containers of a Pod are at spec.containers.', () => {
  const pod = aWorkload('v1', 'Pod', { containers: [{ name: 'app', args: ['a'] }] });
  const got = applyCommandArgsOverrider(pod, { containerName: 'app', operator: 'add', value: ['b'] }, 'args');
  assert.ok(got.ok);
  assert.deepEqual(getPath(got.object, ['spec', 'containers']), [{ name: 'app', args: ['a', 'b'] }]);
});

test('Kinds Karmada does not know are left alone.', () => {
  const object = aConfigMap('c', { a: '1' });
  assert.deepEqual(
    applyCommandArgsOverrider(object, { containerName: 'app', operator: 'add', value: ['b'] }, 'args'),
    {
      ok: true,
      object,
    },
  );
});

test('A command that is not a list fails.', () => {
  const object = aDeploymentWith([{ name: 'app', command: 'run' }]);
  assert.deepEqual(
    applyCommandArgsOverrider(object, { containerName: 'app', operator: 'add', value: ['b'] }, 'command'),
    {
      ok: false,
      error: '/spec/template/spec/containers/0/command: not a list',
    },
  );
});
