import type { Cluster } from '../model/cluster.js';
import { clusterAgeRecipientAnnotation } from '../model/cluster-age-recipient.js';
import type { Template } from '../model/fleet.js';
import { readSopsMetadata } from './sops-metadata.js';

/**
 * Returns why an encrypted template cannot go to a cluster, or undefined when it can: the
 * cluster's age recipient must be one of the file's, or its agent could not decrypt it. Checked
 * in the render, so `validate`, `diff` and the hub all refuse the placement before any apply.
 */
export function checkRecipient(template: Template, cluster: Cluster): string | undefined {
  const read = readSopsMetadata(template.object);
  if (!read.ok) return `${template.source.file}: SOPS-encrypted, ${read.error}`;
  const { namespace, name } = template.ref;
  const what = `${template.source.file}: ${namespace ? `${namespace}/` : ''}${name} is placed on ${cluster.name}`;
  if (cluster.ageRecipient === undefined)
    return `${what}, which has no age recipient (annotation ${clusterAgeRecipientAnnotation} on its Cluster): its agent could not decrypt it`;
  if (!read.metadata.age.some((k) => k.recipient === cluster.ageRecipient))
    return `${what}, but ${cluster.name}'s age key is not a recipient: run sops updatekeys (gitfleet secrets recipients ${cluster.name} prints it)`;
  return undefined;
}
