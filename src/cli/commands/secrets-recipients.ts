// `gitfleet secrets recipients CLUSTER...`: the age recipients a SOPS file placed on these
// clusters must be encrypted to (docs/secrets.md), read from their registrations'
// gitfleet.io/age-recipient annotations, printed comma-separated as `sops --age` and the `age:`
// of a .sops.yaml creation rule take them. A cluster not registered, or registered without a
// recipient, fails the command by name: a file encrypted without it would not decrypt there.
import { secretsRecipientsSpec } from './secrets-recipients-spec.js';
import { defineCommand } from '../run-command.js';
import { exitCodes } from '../exit-codes.js';
import type { Io } from '../io.js';
import { formatLoadError, loadFleet } from '../../core/load/load-fleet.js';
import { clusterAgeRecipientAnnotation } from '../../core/model/cluster-age-recipient.js';
import { readSource, sourceBranchOf } from '../read-source.js';
import { CommandError } from '../command-error.js';

/** `gitfleet secrets recipients`: parses its command line and prints the recipients. */
export const secretsRecipientsCommand = defineCommand({
  spec: secretsRecipientsSpec,
  run: ({ values, positionals }, io) =>
    runSecretsRecipients(
      {
        repo: values.repo,
        clusters: positionals,
        output: values.output,
        ...(values.ref ? { ref: values.ref } : {}),
      },
      io,
    ),
});

/** Prints the clusters' recipients, comma-separated; fails naming a cluster without one. */
export async function runSecretsRecipients(
  opts: { repo: string; ref?: string; clusters: readonly string[]; output: 'text' | 'json' },
  io: Io,
): Promise<number> {
  const source = await readSource(opts.repo, opts.ref);
  const loaded = loadFleet(source.files, { sourceBranch: sourceBranchOf(opts.ref) });
  if (!loaded.ok)
    throw new CommandError(
      'LoadFailed',
      `${opts.repo}: the fleet does not load:\n${loaded.errors.map(formatLoadError).join('\n')}`,
    );
  const recipients: Record<string, string> = {};
  for (const name of opts.clusters) {
    const cluster = loaded.fleet.clusters.find((c) => c.name === name);
    if (cluster === undefined)
      throw new CommandError('NoAgeRecipient', `cluster ${name}: not registered in ${source.description}`);
    if (cluster.ageRecipient === undefined)
      throw new CommandError(
        'NoAgeRecipient',
        `cluster ${name}: has no age recipient (annotation ${clusterAgeRecipientAnnotation} on its Cluster; gitfleet cluster join writes it)`,
      );
    recipients[name] = cluster.ageRecipient;
  }
  const joined = [...new Set(Object.values(recipients))].join(',');
  io.out(
    opts.output === 'json' ? JSON.stringify({ clusters: recipients, recipients: joined }, null, 2) : joined,
  );
  return exitCodes.ok;
}
