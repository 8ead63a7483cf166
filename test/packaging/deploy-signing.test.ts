// The signing components of deploy/ as kustomize renders them in an overlay: the hub's key from
// its Secret as --signing-key; the agent's trusted keys from a ConfigMap and its own key from a
// Secret as --trusted-keys and --signing-key, each mounted read-only where the flag points.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import yaml from 'js-yaml';
import { repoRoot } from '../loops/hub/hub-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

after(removeTempDirs);

const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'kubectl is not installed (its kustomize renders the overlays)';
  }
})();

interface Container {
  args: string[];
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  containers: Container[];
  volumes: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[];
}

function deploymentOf(base: string, component: string): PodSpec {
  const overlay = join(tempDir('overlay'), 'o');
  mkdirSync(overlay);
  const from = (path: string) => relative(overlay, join(repoRoot, 'deploy', path));
  writeFileSync(
    join(overlay, 'kustomization.yaml'),
    yaml.dump({ resources: [from(base)], components: [from(component)] }),
  );
  const objects = yaml.loadAll(execFileSync('kubectl', ['kustomize', overlay]).toString()) as {
    kind: string;
    spec: { template: { spec: PodSpec } };
  }[];
  return objects.find((o) => o.kind === 'Deployment')!.spec.template.spec;
}

function flagPath(spec: PodSpec, flag: string): string {
  const args = spec.containers[0]!.args;
  return args[args.indexOf(flag) + 1]!;
}

function mountOf(spec: PodSpec, path: string): { name: string; readOnly?: boolean } | undefined {
  return spec.containers[0]!.volumeMounts.find((m) => path.startsWith(`${m.mountPath}/`));
}

test(
  'deploy/hub-signing gives the hub its key from the Secret, mounted read-only where --signing-key points.',
  { skip: kubectl },
  () => {
    const spec = deploymentOf('hub', 'hub-signing');
    const mount = mountOf(spec, flagPath(spec, '--signing-key'));
    assert.equal(mount?.readOnly, true);
    assert.equal(
      spec.volumes.find((v) => v.name === mount?.name)?.secret?.secretName,
      'gitfleet-hub-signing-key',
    );
  },
);

test(
  'deploy/agent-signing gives the agent the trusted keys from a ConfigMap and its own key from a Secret.',
  { skip: kubectl },
  () => {
    const spec = deploymentOf('agent', 'agent-signing');
    const trusted = mountOf(spec, flagPath(spec, '--trusted-keys'));
    const own = mountOf(spec, flagPath(spec, '--signing-key'));
    assert.equal(
      spec.volumes.find((v) => v.name === trusted?.name)?.configMap?.name,
      'gitfleet-agent-trusted-keys',
    );
    assert.equal(
      spec.volumes.find((v) => v.name === own?.name)?.secret?.secretName,
      'gitfleet-agent-signing-key',
    );
    assert.ok(trusted?.readOnly && own?.readOnly);
  },
);
