import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  judgeDeletionAllowance,
  type AllowanceEvidence,
  type AllowanceVerdict,
} from '../../../src/core/apply-plan/judge-deletion-allowance.js';

const hub = { name: 'gitfleet', email: 'hub@gitfleet.invalid' };
const person = { name: 'Mallory', email: 'mallory@example.com' };
const S = 'a'.repeat(40);
const allowing = `render aaaaaaa: drop shop\n\nGitfleet-Source-Commit: ${S}\nGitfleet-Source-Ref: refs/heads/main\nGitfleet-Allow-Deletions: member1\n`;

function evidence(over: Partial<AllowanceEvidence> = {}): AllowanceEvidence {
  return {
    cluster: 'member1',
    commit: { author: hub, committer: hub, message: allowing },
    hub,
    source: { oid: S, message: 'drop shop\n\nGitfleet-Allow-Deletions: member1\n' },
    bindingsRecordSource: true,
    ...over,
  };
}

const cases: { name: string; given: AllowanceEvidence; want: AllowanceVerdict }[] = [
  {
    name: 'a hub commit whose recorded source commit allows deletions is trusted',
    given: evidence(),
    want: { type: 'trusted' },
  },
  {
    name: 'a commit without the trailer asks for nothing',
    given: evidence({ commit: { author: person, committer: person, message: 'x\n' } }),
    want: { type: 'none' },
  },
  {
    name: 'a trailer for another cluster asks for nothing here',
    given: evidence({ cluster: 'member2' }),
    want: { type: 'none' },
  },
  {
    name: 'a hand-made commit is not trusted: its author is not the hub',
    given: evidence({
      commit: { author: person, committer: person, message: 'wipe\n\nGitfleet-Allow-Deletions: member1\n' },
    }),
    want: {
      type: 'untrusted',
      reason: 'its author is Mallory <mallory@example.com>, not the hub (gitfleet <hub@gitfleet.invalid>)',
    },
  },
  {
    name: 'a forged author with another committer is not trusted',
    given: evidence({ commit: { author: hub, committer: person, message: allowing } }),
    want: {
      type: 'untrusted',
      reason: 'its committer is Mallory <mallory@example.com>, not the hub (gitfleet <hub@gitfleet.invalid>)',
    },
  },
  {
    name: 'a forged identity without a source commit is not trusted',
    given: evidence({
      commit: { author: hub, committer: hub, message: 'wipe\n\nGitfleet-Allow-Deletions: member1\n' },
    }),
    want: { type: 'untrusted', reason: 'it names no source commit (Gitfleet-Source-Commit)' },
  },
  {
    name: 'a forged identity naming a source commit the bindings branch does not record is not trusted',
    given: evidence({ bindingsRecordSource: false }),
    want: { type: 'untrusted', reason: 'the bindings branch does not record its source commit aaaaaaaaaaaa' },
  },
  {
    name: 'a recorded source commit that cannot be read is not trusted',
    given: evidence({ source: undefined as never }),
    want: { type: 'untrusted', reason: 'its source commit aaaaaaaaaaaa cannot be read' },
  },
  {
    name: 'a recorded source commit that does not allow deletions on the cluster is not trusted',
    given: evidence({ source: { oid: S, message: 'drop shop\n' } }),
    want: { type: 'untrusted', reason: 'its source commit aaaaaaaaaaaa does not allow deletions on member1' },
  },
];

// An eviction's allowance: the source commit allows nothing; the bindings commit that recorded
// the head carries the eviction.
const B = 'b'.repeat(40);
const H = 'c'.repeat(40);
const evicting = `render aaaaaaa: add api\n\nshop/Deployment.apps/web: removed\n\nGitfleet-Source-Commit: ${S}\nGitfleet-Source-Ref: refs/heads/main\nGitfleet-Allow-Deletions: member1\nGitfleet-Eviction: apps/Deployment/shop/web from member1: TaintUntolerated cluster.karmada.io/unreachable:NoExecute\n`;
const recording = (trailers: string) =>
  `render aaaaaaa: add api\n\nGitfleet-Source-Commit: ${S}\nGitfleet-Cluster-Commit: member1=${H}\n${trailers}`;
const evictionEvidence = (over: Partial<AllowanceEvidence> = {}): AllowanceEvidence =>
  evidence({
    commit: { author: hub, committer: hub, message: evicting },
    source: { oid: S, message: 'add api\n' },
    recordedBy: {
      oid: B,
      author: hub,
      committer: hub,
      message: recording('Gitfleet-Eviction: apps/Deployment/shop/web from member1: TaintUntolerated ...\n'),
    },
    ...over,
  });

cases.push(
  {
    name: 'an eviction is trusted when the bindings commit that recorded the head names it',
    given: evictionEvidence(),
    want: { type: 'trusted' },
  },
  {
    name: 'a finished graceful task is trusted the same way',
    given: evictionEvidence({
      commit: {
        author: hub,
        committer: hub,
        message: evicting.replace('Gitfleet-Eviction:', 'Gitfleet-Eviction-Done:'),
      },
      recordedBy: {
        oid: B,
        author: hub,
        committer: hub,
        message: recording(
          'Gitfleet-Eviction-Done: apps/Deployment/shop/web from member1: HealthyOnNewClusters\n',
        ),
      },
    }),
    want: { type: 'trusted' },
  },
  {
    name: 'an eviction no bindings commit records is not trusted',
    given: evictionEvidence({ recordedBy: undefined as never }),
    want: {
      type: 'untrusted',
      reason: 'no bindings commit records it (Gitfleet-Cluster-Commit: member1=<its id>)',
    },
  },
  {
    name: 'an eviction whose recording bindings commit names another cluster is not trusted',
    given: evictionEvidence({
      recordedBy: {
        oid: B,
        author: hub,
        committer: hub,
        message: recording('Gitfleet-Eviction: apps/Deployment/shop/web from member2: TaintUntolerated\n'),
      },
    }),
    want: {
      type: 'untrusted',
      reason:
        'the bindings commit bbbbbbbbbbbb that records it names no eviction from member1 (Gitfleet-Eviction, Gitfleet-Eviction-Done)',
    },
  },
  {
    name: 'an eviction recorded by a bindings commit someone else wrote is not trusted',
    given: evictionEvidence({
      recordedBy: { oid: B, author: person, committer: person, message: recording('') },
    }),
    want: {
      type: 'untrusted',
      reason:
        'the bindings commit bbbbbbbbbbbb that records it: its author is Mallory <mallory@example.com>, not the hub (gitfleet <hub@gitfleet.invalid>)',
    },
  },
  {
    name: 'an eviction on a hand-made head is not trusted whatever the bindings branch says',
    given: evictionEvidence({ commit: { author: person, committer: person, message: evicting } }),
    want: {
      type: 'untrusted',
      reason: 'its author is Mallory <mallory@example.com>, not the hub (gitfleet <hub@gitfleet.invalid>)',
    },
  },
);

for (const c of cases) {
  test(c.name, () => {
    const given = { ...c.given };
    if (given.source === undefined) delete given.source;
    if (given.recordedBy === undefined) delete given.recordedBy;
    assert.deepEqual(judgeDeletionAllowance(given), c.want);
  });
}
