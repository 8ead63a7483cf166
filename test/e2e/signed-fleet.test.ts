// A signed fleet end to end on the test clusters, as a user runs it: `gitfleet hub
// --signing-key` verifying source commits against the allowed signers the FleetConfig names,
// and one `gitfleet agent --trusted-keys --signing-key` per cluster, all long-running processes.
// A signed commit reaches both clusters; an unsigned one pushed to the source branch is refused
// by the hub (the clusters keep the last good state); an unsigned commit pushed straight onto a
// cluster branch is refused by its agent, which deletes nothing, until the hub puts its own
// signed render back; every hub commit verifies with git verify-commit and the hub's key,
// every status commit with the agent's. The clusters are registered with the agents' key: an
// agent stopped while someone pushes unsigned heartbeats for it is judged Unknown all the same.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSshKey } from '../../src/adapters/signing/generate-ssh-key.js';
import { parseStatusBranch } from '../../src/core/status/status-branch.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { writeHeartbeat } from '../../src/loops/agent/heartbeat.js';
import { localAgentRepo } from '../../src/loops/agent/agent-repo.js';
import { commitClusterBranch } from '../support/cluster-branch.js';
import { fleetSteps, startFleet, type RunningFleet } from '../support/running-fleet.js';
import { allowedLine, makeSshKey, missingTool } from '../support/signing-keys.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { commitSigned, fleetRepoWith, git, hubRefs, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';

const ns = uniqueName('signed');
// The monitor judges within seconds (failover-fleet.ts's settings), the agents beat every second.
const monitorArgs = ['--cluster-monitor-period', '1s', '--cluster-monitor-grace-period', '6s'];
const heartbeatArgs = ['--cluster-lease-duration', '4s', '--cluster-lease-renew-interval-fraction', '0.25'];
const clusters = ['member1', 'member2'];
after(() => {
  deleteNamespaceEverywhere(ns);
  removeFleetRepos();
  removeTempDirs();
});

function fleetFiles(signers: string, agentKey = ''): Record<string, string> {
  const annotations = agentKey ? `, annotations: { gitfleet.io/signing-key: '${agentKey}' }` : '';
  const cluster = (name: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: { name: ${name}${annotations} }\nspec: { syncMode: Pull }\n`;
  return {
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: { name: fleet }\nspec:\n  sourceVerification: { mode: strict, allowedSigners: keys/allowed_signers }\n`,
    'keys/allowed_signers': signers,
    'clusters/member1.yaml': cluster('member1'),
    'clusters/member2.yaml': cluster('member2'),
    'apps/app.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${ns} }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: ${ns} }\ndata: { level: "1" }\n`,
    'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: { name: settings, namespace: ${ns} }\nspec:\n  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: settings }]\n  placement: { clusterAffinity: { clusterNames: [member1, member2] } }\n`,
  };
}

function level(cluster: string): string | undefined {
  try {
    return kubectl(['get', 'configmap', 'settings', '-n', ns, '-o', 'jsonpath={.data.level}'], {
      context: cluster,
    });
  } catch {
    return undefined;
  }
}

const setLevel = (value: string) => (work: string) =>
  writeFileSync(
    join(work, 'apps/app.yaml'),
    fleetFiles('')['apps/app.yaml']!.replace('level: "1"', `level: "${value}"`),
  );

test(
  'a signed fleet: signed commits reach the clusters, unsigned ones are refused at the hub and at the agents',
  { skip: missingTool('ssh-keygen'), timeout: 600_000 },
  async (t) => {
    const alice = makeSshKey({ comment: 'alice' });
    const keys = tempDir('signed-fleet-keys');
    const hubKey = generateSshKey('hub@gitfleet.invalid');
    const agentKey = generateSshKey('agents@gitfleet.invalid');
    writeFileSync(join(keys, 'hub'), hubKey.privateKey, { mode: 0o600 });
    writeFileSync(join(keys, 'agent'), agentKey.privateKey, { mode: 0o600 });
    writeFileSync(join(keys, 'trusted'), `hub@gitfleet.invalid ${hubKey.publicLine}\n`);
    const repo = fleetRepoWith({ 'README.md': 'a signed fleet\n' }, { bare: false });
    mkdirSync(join(repo.work, 'keys'), { recursive: true });
    const first = commitSigned(
      repo,
      alice.publicFile,
      'verify sources\n\nGitfleet-Verification-Seal: the history before is reviewed',
      (work) => {
        for (const [path, text] of Object.entries(
          fleetFiles(`${allowedLine('alice@example.com', alice)}\n`, agentKey.publicLine),
        )) {
          mkdirSync(join(work, path, '..'), { recursive: true });
          writeFileSync(join(work, path), text);
        }
      },
    );
    const fleet: RunningFleet = startFleet(repo.path, clusters, process.env['GITFLEET_TEST_KUBECONFIG']!, {
      hub: ['--signing-key', join(keys, 'hub'), ...monitorArgs],
      agent: [
        '--trusted-keys',
        join(keys, 'trusted'),
        '--signing-key',
        join(keys, 'agent'),
        ...heartbeatArgs,
      ],
    });
    const step = fleetSteps(t, fleet, 80);
    try {
      await step('a signed source commit reaches both clusters', async () => {
        for (const c of clusters)
          await eventually(`settings at level 1 on ${c}`, async () => (level(c) === '1' ? true : undefined));
        assert.match(
          git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
          new RegExp(`Gitfleet-Source-Verified: ${first} by alice@example.com`),
        );
      });

      await step(
        'an unsigned source commit is refused: not rendered, the clusters keep level 1',
        async () => {
          const unsigned = commitSigned(repo, undefined, 'level 2, unsigned', setLevel('2'));
          await eventually('the refusal on the bindings branch', async () =>
            git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']).includes(
              `Gitfleet-Source-Refused: ${unsigned}: commit ${unsigned.slice(0, 12)}: unsigned`,
            )
              ? true
              : undefined,
          );
          await eventually('the hub says it refused the commit', async () =>
            fleet.output().includes(`hub: refused refs/heads/main ${unsigned.slice(0, 7)}: `)
              ? true
              : undefined,
          );
          for (const c of clusters) assert.equal(level(c), '1');
        },
      );

      await step(
        'a commit pushed onto a cluster branch without the hub key is refused by the agent, which deletes nothing',
        async () => {
          await fleet.signal('hub', 'SIGSTOP');
          try {
            const forged = await commitClusterBranch(
              repo.gitdir,
              'member1',
              [],
              'render: empty the cluster\n',
            );
            await eventually('member1 reports the forged head refused', async () => {
              const report = parseStatusBranch(
                await readStatusFiles(repo.gitdir, 'refs/heads/gitfleet/status/member1'),
              );
              const refused = report?.conditions?.find((c) => c.type === 'Verified' && c.status === 'False');
              return refused?.message?.startsWith(`commit ${forged.slice(0, 12)}: unsigned`)
                ? true
                : undefined;
            });
            assert.equal(level('member1'), '1', 'nothing deleted');
          } finally {
            await fleet.signal('hub', 'SIGCONT');
          }
          await eventually('the hub puts its signed render back', async () =>
            /Gitfleet-Restored-From/.test(
              git(repo, ['log', '-1', '--format=%B', 'gitfleet/clusters/member1']),
            )
              ? true
              : undefined,
          );
        },
      );

      await step(
        'a signed commit on top of the refused one reaches both clusters (strict: the unsigned one is in its history, so it is refused too, until main is reset past it)',
        async () => {
          commitSigned(repo, alice.publicFile, 'level 3, signed on top', setLevel('3'));
          await eventually('the strict refusal of the unsigned commit under it', async () =>
            /Gitfleet-Source-Refused: [0-9a-f]{40}: commit [0-9a-f]{12}: unsigned \(in the history of/.test(
              git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
            )
              ? true
              : undefined,
          );
          git(repo, ['update-ref', 'refs/heads/main', first]);
          execFileSync('git', ['reset', '-q', '--hard', first], { cwd: repo.work });
          commitSigned(repo, alice.publicFile, 'level 3, signed', setLevel('3'));
          for (const c of clusters)
            await eventually(`settings at level 3 on ${c}`, async () =>
              level(c) === '3' ? true : undefined,
            );
        },
      );

      await step(
        'every hub commit verifies with the hub key, every status commit with the agent key',
        async () => {
          const allowed = join(keys, 'allowed');
          writeFileSync(
            allowed,
            `hub@gitfleet.invalid ${hubKey.publicLine}\nagents ${agentKey.publicLine}\n`,
          );
          const refs = [...hubRefs(repo).keys()].filter((r) => !r.includes('/heartbeat/'));
          const heads = refs.map((r) => git(repo, ['rev-parse', r]));
          for (const [i, head] of heads.entries()) {
            git(repo, ['-c', `gpg.ssh.allowedSignersFile=${allowed}`, 'verify-commit', head]);
            assert.ok(refs[i], head);
          }
          assert.ok(refs.some((r) => r.includes('/status/')) && refs.some((r) => r.includes('/clusters/')));
        },
      );

      await step(
        'unsigned heartbeats pushed for a stopped agent keep nobody Ready: its cluster is judged Unknown',
        async () => {
          await fleet.stopAgent('member2');
          const ref = 'refs/heads/gitfleet/heartbeat/member2';
          const forged: string[] = [];
          await eventually('member2 judged Unknown while its heartbeat keeps moving', async () => {
            forged.push(
              await writeHeartbeat({
                repo: localAgentRepo(repo.path),
                ref,
                cluster: 'member2',
                author: {
                  name: 'forger',
                  email: 'f@example.com',
                  time: Math.floor(Date.now() / 1000),
                  tzOffsetMinutes: 0,
                },
              }),
            );
            return /^Gitfleet-Cluster-Judged: member2=Unknown$/m.test(
              git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
            )
              ? true
              : undefined;
          });
          assert.ok(forged.length > 1, 'the heartbeat ref moved while member2 was judged');
          assert.match(
            fleet.output(),
            new RegExp(
              `cluster member2: heartbeat ${ref} at commit [0-9a-f]{12} ignored, not taken as a sign of life: .*: unsigned`,
            ),
          );
          assert.doesNotMatch(
            git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
            /Gitfleet-Cluster-Judged: member1/,
            "member1's signed heartbeats keep it Ready",
          );
        },
      );
    } finally {
      await fleet.stop();
    }
  },
);
