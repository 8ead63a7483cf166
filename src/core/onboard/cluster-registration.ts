// The Cluster registration `gitfleet cluster join` writes (docs/onboarding.md): Karmada's Cluster
// document in Pull mode, with the labels asked for and the agent's public signing key in the
// annotation the hub reads it from (model/cluster-signing-key.ts). Only the public half: the
// private key never reaches the fleet repository.
import { clusterAgeRecipientAnnotation } from '../model/cluster-age-recipient.js';
import { emitYaml } from '../format/emit-yaml.js';
import { clusterSigningKeyAnnotation } from '../model/cluster-signing-key.js';
import { checkDns1123Label, checkLabelValue, checkQualifiedName } from '../load/name-rules.js';

/** What a registration says. */
export interface ClusterRegistration {
  name: string;
  labels: Readonly<Record<string, string>>;
  /** The agent's public key line (`ssh-ed25519 AAAA… comment`). */
  signingKey: string;
  /** The agent's age recipient (docs/secrets.md). */
  ageRecipient?: string;
}

/** Karmada's limit on a cluster's name (ValidateClusterName). */
export const maxClusterNameLength = 48;

/** Returns the Cluster document's text. */
export function clusterRegistrationText(registration: ClusterRegistration): string {
  const metadata: Record<string, unknown> = {
    name: registration.name,
    annotations: {
      [clusterSigningKeyAnnotation]: registration.signingKey,
      ...(registration.ageRecipient ? { [clusterAgeRecipientAnnotation]: registration.ageRecipient } : {}),
    },
  };
  if (Object.keys(registration.labels).length > 0) metadata['labels'] = { ...registration.labels };
  const header = `# The registration of member cluster ${registration.name}, written by gitfleet cluster join.\n`;
  return (
    header +
    emitYaml({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata,
      spec: { syncMode: 'Pull' },
    })
  );
}

/** Returns the problem with a cluster name, or undefined: a DNS-1123 label of at most 48 characters. */
export function checkClusterName(name: string): string | undefined {
  return checkDns1123Label(name, maxClusterNameLength);
}

/** Returns the labels of `k=v,k2=v2`, or the first problem found, naming the label. */
export function parseLabelList(
  text: string,
): { ok: true; labels: Record<string, string> } | { ok: false; problem: string } {
  const labels: Record<string, string> = {};
  for (const item of text.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) return { ok: false, problem: `label '${item}': not key=value` };
    const [key, value] = [item.slice(0, eq).trim(), item.slice(eq + 1).trim()];
    const keyProblem = checkQualifiedName(key);
    if (keyProblem) return { ok: false, problem: `label key '${key}': ${keyProblem}` };
    const valueProblem = checkLabelValue(value);
    if (valueProblem) return { ok: false, problem: `label ${key}: value '${value}': ${valueProblem}` };
    if (key in labels) return { ok: false, problem: `label ${key}: given twice` };
    labels[key] = value;
  }
  return { ok: true, labels };
}
