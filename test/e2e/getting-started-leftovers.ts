// What a walkthrough run leaves in the test clusters when it stops short (a killed test): the
// namespace `shop` and the agents' inventories and Leases for east and west. A new run starts
// without them: an inventory of an older fleet would be kept apart, and a namespace still
// terminating would refuse the new run's objects.
import { kubectl } from '../kube/agent-fixture.js';
import { eventually } from '../kube/test-clusters.js';

const namespace = 'shop';
const clusters = ['east', 'west'];

function quietly(args: readonly string[], context: string): string {
  try {
    return kubectl(args, { context });
  } catch {
    return '';
  }
}

/** Deletes the walkthrough's namespace, inventories and Leases from `contexts`; waits until the namespace is gone unless told not to. */
export async function removeTutorialLeftovers(
  contexts: readonly string[],
  opts: { wait?: boolean } = {},
): Promise<void> {
  for (const context of contexts) {
    quietly(['delete', 'namespace', namespace, '--ignore-not-found', '--wait=false'], context);
    const names = quietly(['-n', 'gitfleet-system', 'get', 'configmaps,leases', '-o', 'name'], context)
      .split('\n')
      .filter((n) =>
        clusters.some(
          (c) =>
            n.startsWith(`configmap/gitfleet-inventory-${c}`) ||
            n === `lease.coordination.k8s.io/gitfleet-agent-${c}`,
        ),
      );
    if (names.length > 0)
      quietly(['-n', 'gitfleet-system', 'delete', '--ignore-not-found', ...names], context);
  }
  if (opts.wait === false) return;
  for (const context of contexts) {
    await eventually(`namespace ${namespace} gone from ${context}`, async () =>
      quietly(['get', 'namespace', namespace, '-o', 'name', '--ignore-not-found'], context).trim() === ''
        ? true
        : undefined,
    );
  }
}
