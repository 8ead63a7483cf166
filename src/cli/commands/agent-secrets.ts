// `gitfleet agent --age-identity FILE` or `--age-identity-secret NS/NAME`: the age identities
// the agent decrypts SOPS-encrypted files with (docs/secrets.md). An identity file may hold
// several identities (one a line) during a key rotation; a Secret's every data key is read as
// such a file. Both are read again each pass, so a rotated key needs no restart. Only recipients
// are ever logged.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../usage-error.js';
import type { Logger } from '../../loops/runtime/logger.js';
import type { ClusterApi } from '../../loops/agent/cluster-api.js';
import type { AgentSecrets } from '../../loops/agent/decrypt-branch.js';
import { readAgeIdentities, AgeIdentityError, type AgeIdentity } from '../../adapters/secrets/age-keyring.js';

/** Where the agent's age identities come from. */
export interface AgentSecretsOptions {
  ageIdentity?: string;
  ageIdentitySecret?: { namespace: string; name: string };
}

/** Returns the secrets options of the command line. */
export function agentSecretsOf(values: {
  'age-identity'?: string | undefined;
  'age-identity-secret'?: string | undefined;
}): AgentSecretsOptions {
  const file = values['age-identity'];
  const secret = values['age-identity-secret'];
  if (file !== undefined && secret !== undefined)
    throw new UsageError('--age-identity and --age-identity-secret: give one of them');
  if (secret === undefined) return file !== undefined ? { ageIdentity: file } : {};
  const [namespace, name, ...rest] = secret.split('/');
  if (!namespace || !name || rest.length > 0)
    throw new UsageError(`--age-identity-secret ${JSON.stringify(secret)}: give NAMESPACE/NAME`);
  return { ageIdentitySecret: { namespace, name } };
}

/** Returns the pass's secrets (none without the flags), its identities read once now to fail early; logs recipients only. */
export async function agentSecretsFor(
  opts: AgentSecretsOptions,
  client: ClusterApi,
  log: Logger,
): Promise<{ secrets?: AgentSecrets }> {
  let identities: () => Promise<AgeIdentity[]>;
  if (opts.ageIdentity !== undefined) {
    const file = opts.ageIdentity;
    identities = async () => readAgeIdentities(await readFile(file, 'utf8'), file);
  } else if (opts.ageIdentitySecret !== undefined) {
    const { namespace, name } = opts.ageIdentitySecret;
    identities = () => identitiesInSecret(client, namespace, name);
  } else return {};
  const first = await identities();
  log.info(`decrypting SOPS files for age recipients ${first.map((i) => i.recipient).join(', ')}`);
  return { secrets: { identities, plaintexts: new Set(), cache: new Map() } };
}

async function identitiesInSecret(
  client: ClusterApi,
  namespace: string,
  name: string,
): Promise<AgeIdentity[]> {
  const source = `Secret ${namespace}/${name}`;
  const secret = await client.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
  if (secret === undefined) throw new AgeIdentityError(`${source}: not found`);
  const data = secret['data'];
  const texts =
    typeof data === 'object' && data !== null
      ? Object.values(data).filter((v): v is string => typeof v === 'string')
      : [];
  return readAgeIdentities(texts.map((v) => Buffer.from(v, 'base64').toString('utf8')).join('\n'), source);
}
