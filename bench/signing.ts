// Scenario signing: what the signed chain of custody (docs/security.md) costs a pass. A signature
// covers a commit object, which names its tree by hash, so signing and verifying read one commit
// whatever the branch holds: the agent verifies its branch head (one commit, plus the bindings
// commit of a deletion allowance) at 1,000 or 10,000 objects alike; the hub verifies the source
// head and its own bindings record, signs one commit per branch it writes (1,001 in a first
// pass at 1,000 clusters), and verifies each cluster's status head against that cluster's key
// (1,000 keys, 1,000 commits at its first look). Measured in this process on real commits in a real repository, with
// an SSH ed25519 key (node:crypto) and an OpenPGP key (openpgp.js).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTreeFromScratch } from '../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../src/adapters/git/hash-object.js';
import type { GitObject } from '../src/adapters/git/git-object.js';
import { makeCommit } from '../src/adapters/git/make-commit.js';
import { writeObjects } from '../src/adapters/git/write-objects.js';
import { signCommit, type CommitSigner } from '../src/adapters/signing/commit-signer.js';
import { generateSshKey } from '../src/adapters/signing/generate-ssh-key.js';
import { signerOfText } from '../src/adapters/signing/load-signing-key.js';
import { openpgp } from '../src/adapters/signing/openpgp-keys.js';
import { signerVerifier } from '../src/adapters/signing/signer-verifier.js';
import { verifyCommit } from '../src/loops/agent/verify-branch-head.js';
import { clusterKeyChecker } from '../src/loops/hub/cluster-key-checker.js';
import { readGitObject } from '../src/adapters/git/read-git-object.js';
import { systemClock } from '../src/loops/runtime/clock.js';
import { alternate, type Contender } from './lib/alternate.js';
import type { Scenario, ScenarioReport } from './lib/report.js';

const clustersAtScale = 1_000;

/** The signing scenario: signature and verification cost per hub and agent pass. */
export const signingScenario: Scenario = {
  name: 'signing',
  summary: 'signing and verification per pass: agent head at 1,000 and 10,000 objects, hub at 1,000 clusters',
  run: async (opts): Promise<ScenarioReport> => {
    const gitdir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-signing-'));
    execFileSync('git', ['init', '-q', '--bare', gitdir]);
    try {
      const signers = await makeSigners();
      const contenders: Contender[] = [];
      for (const [format, signer] of signers) {
        for (const objects of [1_000, 10_000]) {
          const head = await branchHead(gitdir, objects, signer);
          const verifier = await signerVerifier(signer);
          contenders.push({
            name: `agent pass: verify the branch head, ${objects.toLocaleString('en')} objects, ${format}`,
            side: 'gitfleet',
            run: async () => {
              const start = performance.now();
              const verdict = await verifyCommit(verifier, gitdir, head, systemClock());
              if (!verdict.ok) throw new Error(`${head}: ${verdict.problem}`);
              return { ms: performance.now() - start };
            },
          });
        }
        const payloads = clusterCommits(clustersAtScale + 1);
        contenders.push({
          name: `hub pass at ${clustersAtScale.toLocaleString('en')} clusters: sign ${payloads.length.toLocaleString('en')} commits (every branch and the bindings), ${format}`,
          side: 'gitfleet',
          run: async () => {
            const start = performance.now();
            for (const commit of payloads) await signCommit(commit, signer);
            return { ms: performance.now() - start };
          },
        });
      }
      contenders.push(await statusHeadsContender(gitdir));
      const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
      return {
        scenario: 'signing',
        status: 'ran',
        note: "in-process, the commit read from a real repository for verification; a hub pass also verifies the source head (head mode: one commit; strict: each new commit) and its own bindings record (one commit), each as one agent verification; the status heads' contender is a hub process's first look (each cluster's verifier made, every head verified), later passes verify only the heads that moved",
        parameters: { objects: [1_000, 10_000], clusters: clustersAtScale, formats: [...signers.keys()] },
        contenders: results,
        ratios: [],
      };
    } finally {
      rmSync(gitdir, { recursive: true, force: true });
    }
  },
};

/**
 * The hub at 1,000 clusters verifying what the agents signed: each cluster's status head (and, the
 * same cost, each moved heartbeat) against the key its registration names, one key per cluster,
 * as a hub process's first pass does (accept-status-heads.ts, signed-liveness.ts).
 */
async function statusHeadsContender(gitdir: string): Promise<Contender> {
  const heads: { cluster: string; key: string; oid: string }[] = [];
  const objects: GitObject[] = [];
  const tree = buildTreeFromScratch(new Map()).root;
  for (let i = 0; i < clustersAtScale; i++) {
    const cluster = `member${i}`;
    const key = generateSshKey(`gitfleet-agent@${cluster}`);
    const author = {
      name: 'gitfleet agent',
      email: 'agent@gitfleet.invalid',
      time: 1_780_000_100,
      tzOffsetMinutes: 0,
    };
    const unsigned = makeCommit({ tree, parents: [], author, message: `status of ${cluster}\n` });
    const commit = await signCommit(unsigned, await signerOfText(key.privateKey, cluster));
    objects.push(commit);
    heads.push({ cluster, key: key.publicLine, oid: commit.oid });
  }
  await writeObjects({ gitdir, objects, fsync: false });
  return {
    name: `hub pass at ${clustersAtScale.toLocaleString('en')} clusters: verify ${clustersAtScale.toLocaleString('en')} status heads, each against its cluster's key, ssh`,
    side: 'gitfleet',
    run: async () => {
      const start = performance.now();
      const check = clusterKeyChecker();
      for (const { cluster, key, oid } of heads) {
        const { content } = await readGitObject({ gitdir }, oid);
        const { verdict } = await check({ cluster, key, commit: { oid, content } });
        if (!verdict.ok) throw new Error(`${cluster} ${oid}: ${verdict.problem}`);
      }
      return { ms: performance.now() - start };
    },
  };
}

async function makeSigners(): Promise<Map<string, CommitSigner>> {
  const ssh = await signerOfText(generateSshKey('bench').privateKey, 'bench ssh key');
  const pgp = await openpgp();
  const { privateKey } = await pgp.generateKey({
    userIDs: [{ name: 'bench', email: 'bench@gitfleet.invalid' }],
    format: 'armored',
  });
  return new Map([
    ['ssh', ssh],
    ['openpgp', await signerOfText(privateKey, 'bench openpgp key')],
  ]);
}

/** Writes a signed commit whose tree holds `objects` manifests; returns its id. */
async function branchHead(gitdir: string, objects: number, signer: CommitSigner): Promise<string> {
  const files = new Map<string, string>();
  const blobs = [];
  for (let i = 0; i < objects; i++) {
    const blob = toGitObject(
      'blob',
      Buffer.from(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c${i}}\n`),
    );
    blobs.push(blob);
    files.set(`v1/ConfigMap/shop/c${i}.yaml`, blob.oid);
  }
  const tree = buildTreeFromScratch(files);
  const commit = await signCommit(renderCommit(tree.root, 0), signer);
  await writeObjects({ gitdir, objects: [...blobs, ...tree.newObjects, commit], fsync: false });
  return commit.oid;
}

/** Returns `count` unsigned render commits, one per cluster branch, as a hub pass makes them. */
function clusterCommits(count: number): GitObject[] {
  const tree = buildTreeFromScratch(new Map()).root;
  return Array.from({ length: count }, (_, i) => renderCommit(tree, i));
}

function renderCommit(tree: string, i: number): GitObject {
  const author = {
    name: 'gitfleet hub',
    email: 'hub@gitfleet.invalid',
    time: 1_780_000_000,
    tzOffsetMinutes: 0,
  };
  const message = `render: main abcdef0 for member${i}\n\nGitfleet-Source-Commit: ${'a'.repeat(40)}\nGitfleet-Cluster: member${i}\n`;
  return makeCommit({ tree, parents: [], author, message });
}
