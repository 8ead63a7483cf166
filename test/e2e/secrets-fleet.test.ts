// SOPS with age end to end, as a user runs it (docs/secrets.md): a fleet holds a Secret the real
// `sops` encrypted to both clusters' age recipients (their Cluster annotations); `gitfleet hub`
// places it without a key, and one `gitfleet agent --age-identity FILE` per cluster, each with
// its own identity, decrypts and applies it; a value changed with `sops set` reaches both. Then
// everything written is scanned for the plaintext values, plain and base64: every Git object of
// the fleet repository (source, cluster, status and bindings branches), what the hub and the
// agents printed at debug, their /metrics, the live Secrets' metadata (annotations, managed
// fields) and the inventories; the scan is shown to find a value where one is.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStatusBranch } from '../../src/core/status/status-branch.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { fleetSteps, startFleet } from '../support/running-fleet.js';
import { httpGet, servedUrl } from '../support/scrape-metrics.js';
import { inventoryText } from '../support/inventory-text.js';
import { anAgeKey, sopsBin, sopsEncrypt } from '../support/sops-tools.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { commitChange, fleetRepoWith, git, hubRefs, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';

const tools = sopsBin();
const bin = 'dir' in tools ? tools.dir : '';
const ns = uniqueName('secrets');
const clusters = ['member1', 'member2'];
const USERNAME = 'e2e-user-n4me-tr0ub4dor';
const OLD = 'e2e-old-s3cr3t-correct-horse';
const NEW = 'e2e-new-s3cr3t-battery-staple';
after(() => {
  deleteNamespaceEverywhere(ns);
  removeFleetRepos();
  removeTempDirs();
});

const plaintext = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: ${ns}\ntype: Opaque\nstringData:\n  username: ${USERNAME}\n  password: ${OLD}\n`;

function fleetFiles(recipients: Record<string, string>, encrypted: string): Record<string, string> {
  const cluster = (name: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  annotations:\n    gitfleet.io/age-recipient: ${recipients[name]}\nspec: {syncMode: Pull}\n`;
  return {
    'clusters/member1.yaml': cluster('member1'),
    'clusters/member2.yaml': cluster('member2'),
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n`,
    'apps/db-credentials.yaml': encrypted,
    'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: secrets, namespace: ${ns}}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: Secret, name: db-credentials}]\n  placement: {clusterAffinity: {clusterNames: [member1, member2]}}\n`,
  };
}

function livePassword(cluster: string): string | undefined {
  try {
    const b64 = kubectl(['get', 'secret', 'db-credentials', '-n', ns, '-o', 'jsonpath={.data.password}'], {
      context: cluster,
    });
    return Buffer.from(b64, 'base64').toString();
  } catch {
    return undefined;
  }
}

/** The plaintext values, plain and base64, that `text` holds. */
function plaintextIn(text: string): string[] {
  const forms = [USERNAME, OLD, NEW].flatMap((v) => [v, Buffer.from(v).toString('base64')]);
  return forms.filter((f) => text.includes(f));
}

test(
  'SOPS with age through the loops: each agent decrypts with its own key, a sops set reaches both clusters, no plaintext is written anywhere',
  { skip: 'skip' in tools ? tools.skip : false, timeout: 600_000 },
  async (t) => {
    const keys = Object.fromEntries(
      await Promise.all(clusters.map(async (c) => [c, await anAgeKey()] as const)),
    );
    const keyDir = tempDir('secrets-fleet-keys');
    for (const c of clusters)
      writeFileSync(join(keyDir, c), `# ${c}'s age identity\n${keys[c]!.identity}\n`, { mode: 0o600 });
    const encrypted = sopsEncrypt(bin, plaintext, {
      recipients: clusters.map((c) => keys[c]!.recipient),
      args: ['--encrypted-regex', '^(data|stringData)$'],
    });
    const recipients = Object.fromEntries(clusters.map((c) => [c, keys[c]!.recipient]));
    const repo = fleetRepoWith(fleetFiles(recipients, encrypted), { bare: false });
    const observed = ['--log-level', 'debug', '--metrics-addr', '127.0.0.1:0'];
    const fleet = startFleet(repo.path, clusters, process.env['GITFLEET_TEST_KUBECONFIG']!, {
      hub: observed,
      agent: observed,
      agentOf: (c) => ['--age-identity', join(keyDir, c)],
    });
    t.after(() => fleet.stop());
    const step = fleetSteps(t, fleet, 80);

    await step('the decrypted Secret is live on both clusters', async () => {
      for (const c of clusters)
        await eventually(`the Secret on ${c}`, async () => (livePassword(c) === OLD ? true : undefined));
      for (const c of clusters)
        assert.match(
          git(repo, ['show', `gitfleet/clusters/${c}:${ns}/Secret/db-credentials.yaml`]),
          /password: "?ENC\[AES256_GCM,/,
          'the cluster branch holds the encrypted file',
        );
    });

    await step('a value changed with sops set reaches both clusters', async () => {
      commitChange(repo, 'rotate the database password', (work) =>
        execFileSync(
          join(bin, 'sops'),
          ['set', join(work, 'apps/db-credentials.yaml'), '["stringData"]["password"]', JSON.stringify(NEW)],
          { env: { PATH: process.env['PATH'] ?? '', HOME: keyDir, SOPS_AGE_KEY: keys['member1']!.identity } },
        ),
      );
      for (const c of clusters) {
        await eventually(`the new password on ${c}`, async () =>
          livePassword(c) === NEW ? true : undefined,
        );
        const head = git(repo, ['rev-parse', `gitfleet/clusters/${c}`]);
        await eventually(`${c}'s status records its head applied`, async () => {
          const files = await readStatusFiles(repo.gitdir, `refs/heads/gitfleet/status/${c}`);
          return parseStatusBranch(files)?.appliedCommit === head ? true : undefined;
        });
      }
    });

    await step(
      'no plaintext in Git, logs, metrics, live metadata or inventories; the scan finds a planted one',
      async () => {
        const refs = [...hubRefs(repo).keys()];
        for (const kind of ['/clusters/', '/status/', '/bindings'])
          assert.ok(
            refs.some((r) => r.includes(kind)),
            `a ${kind} branch was written: ${refs.join(' ')}`,
          );
        const gitObjects = () =>
          execFileSync('git', ['--git-dir', repo.gitdir, 'cat-file', '--batch-all-objects', '--batch'], {
            maxBuffer: 1 << 28,
          }).toString('latin1');
        const metrics: string[] = [];
        for (const name of ['hub', ...clusters]) {
          const url = servedUrl(fleet.outputOf(name).split('\n'));
          assert.ok(url, `${name} serves /metrics`);
          const { status, body } = await httpGet(`${url}/metrics`);
          assert.equal(status, 200);
          metrics.push(body);
        }
        assert.match(metrics.join('\n'), /gitfleet_agent_/, 'the agents counted their passes');
        const live = (c: string) =>
          kubectl(['get', 'secret', 'db-credentials', '-n', ns, '-o', 'json'], { context: c });
        const inventories = (c: string) =>
          kubectl(['get', 'configmaps', '-A', '-l', 'gitfleet.io/inventory', '-o', 'json'], { context: c });
        const where: [string, string][] = [
          ['the Git repository', gitObjects()],
          ['the hub and agents output', fleet.output()],
          ['the /metrics', metrics.join('\n')],
          ...clusters.flatMap((c): [string, string][] => [
            [
              `the live Secret's metadata on ${c}`,
              JSON.stringify((JSON.parse(live(c)) as { metadata: unknown }).metadata),
            ],
            [`the inventories on ${c}`, inventories(c)],
            [`the inventories on ${c}, unpacked`, inventoryText(inventories(c))],
          ]),
        ];
        assert.match(fleet.output(), /decrypting SOPS files for age recipients age1/);
        // A pass that found everything in place is a line only at debug (test/kube/agent-log-level.test.ts).
        for (const c of clusters)
          assert.match(
            fleet.outputOf(c),
            new RegExp(`agent ${c}: applied [0-9a-f]{7}: [^\\n]* in \\d+ ms$`, 'm'),
          );
        for (const [place, text] of where)
          assert.deepEqual(plaintextIn(text), [], `${place} holds plaintext`);
        // The scan reads what the inventories hold: the Secret, recorded by a digest.
        for (const c of clusters)
          assert.match(
            inventoryText(inventories(c)),
            /"kind":"Secret","namespace":"[^"]+","name":"db-credentials","digest":"[0-9a-f]{40}"/,
            `${c} has an inventory recording the Secret`,
          );
        // The scan finds a value where one is: in the live Secret's data, and planted in Git.
        for (const c of clusters)
          assert.ok(plaintextIn(live(c)).includes(Buffer.from(NEW).toString('base64')));
        git(repo, ['hash-object', '-w', '--stdin'], {
          input: `planted: ${Buffer.from(OLD).toString('base64')}\n`,
        });
        assert.deepEqual(plaintextIn(gitObjects()), [Buffer.from(OLD).toString('base64')]);
      },
    );
  },
);
