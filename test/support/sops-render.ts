// The hub's copy of a SOPS file for one cluster, rendered by the real loader and renderer (so the
// agent tests apply what the hub would commit), and the Secret the secrets tests encrypt.
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/core/load/load-fleet.js';
import { renderFleet } from '../../src/core/render/render-fleet.js';

/** Returns a plaintext Secret `ns/name` with a username and `password` in stringData. */
export function secretText(ns: string, name: string, password: string): string {
  return `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  namespace: ${ns}
type: Opaque
stringData:
  username: shop
  password: ${password}
`;
}

/** Returns the hub's rendered copy of an encrypted Secret for a cluster whose recipient is `recipient`. */
export function renderedForRecipient(encrypted: string, ns: string, recipient: string): string {
  const files = [
    { path: 'secret.yaml', content: encrypted },
    {
      path: 'cluster.yaml',
      content: `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n  annotations:\n    gitfleet.io/age-recipient: ${recipient}\n`,
    },
    {
      path: 'policy.yaml',
      content: `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: p\n  namespace: ${ns}\nspec:\n  resourceSelectors:\n    - apiVersion: v1\n      kind: Secret\n  placement:\n    clusterAffinity:\n      clusterNames: [m]\n`,
    },
  ];
  const loaded = loadFleet(files, { sourceBranch: 'main' });
  assert.ok(loaded.ok);
  const out = renderFleet({ fleet: loaded.fleet, clusterStatus: new Map(), previous: new Map() });
  const [text] = [...out.clusters.get('m')!.files.values()].filter((t) => t.includes('kind: Secret'));
  assert.ok(text, JSON.stringify(out.diagnostics));
  return text;
}
