// Which Namespaces are synced to every cluster, as Karmada's namespace sync controller decides
// (pkg/controllers/namespace/namespace_sync_controller.go: the skip-auto-propagation label's
// value is lowercased before it is compared with "true").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAutoPropagatedNamespace } from '../../../src/core/follow/place-followers.js';
import { compileSkipRules } from '../../../src/core/detect/skip-rules.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import type { Template } from '../../../src/core/model/fleet.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';

const rules = compileSkipRules(defaultFleetConfig());

function aNamespace(name: string, labels?: Record<string, string>): Template {
  const ref: ObjectRef = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name };
  return {
    ref,
    key: refKey(ref),
    object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } },
    source: { file: `namespaces/${name}.yaml`, index: 0 },
  };
}

const label = 'namespace.karmada.io/skip-auto-propagation';

test('the skip-auto-propagation label is read as Karmada reads it', () => {
  const cases: { name: string; given: Template; want: boolean }[] = [
    { name: 'A Namespace without the label is synced.', given: aNamespace('shop'), want: true },
    { name: 'The value "true" skips it.', given: aNamespace('shop', { [label]: 'true' }), want: false },
    { name: 'The value "TRUE" skips it too.', given: aNamespace('shop', { [label]: 'TRUE' }), want: false },
    { name: 'The value "True" skips it too.', given: aNamespace('shop', { [label]: 'True' }), want: false },
    {
      name: 'The value "false" does not skip it.',
      given: aNamespace('shop', { [label]: 'false' }),
      want: true,
    },
    {
      name: 'The value "yes" is not "true": it is synced.',
      given: aNamespace('shop', { [label]: 'yes' }),
      want: true,
    },
  ];
  for (const c of cases) assert.equal(isAutoPropagatedNamespace(c.given, rules), c.want, c.name);
});
