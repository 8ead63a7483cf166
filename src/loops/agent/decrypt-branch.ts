// Step 2½ of the agent's pass (docs/secrets.md): the SOPS-encrypted files of the cluster branch
// are decrypted in memory, with the agent's own age identities, right before the apply. The
// plaintext replaces the manifest the apply sees and goes nowhere else: not to disk, the
// inventory (which records the encrypted file's blob id as its digest), the status branch, logs
// or messages (redact-secrets.ts). A file that does not decrypt (no identity, not addressed to
// this cluster, tampered, bad MAC) is not applied: it is reported with the files that do not
// parse, naming the object and the reason, and its object keeps its last applied state (its path
// still counts as desired, so it is never pruned for it).
import {
  decryptSopsDocument,
  isEncryptedObject,
  type SopsDecryption,
} from '../../adapters/secrets/decrypt-sops-document.js';
import type { AgeIdentity } from '../../adapters/secrets/age-keyring.js';
import { refKey, refLabel } from '../../core/model/object-ref.js';
import type { BranchRead, DesiredObject } from './read-cluster-branch.js';

/** The agent's age identities and what it decrypted with them (`agent --age-identity`). */
export interface AgentSecrets {
  /** Returns the identities, read again each pass so a rotated key is picked up; throws when they cannot be read. */
  identities(): Promise<AgeIdentity[]>;
  /** The decrypted string values of the current branch: kept out of every message (redact-secrets.ts). */
  plaintexts: Set<string>;
  /** Decryptions by blob id (a file's content never changes), kept for the files of the current branch. */
  cache: Map<string, SopsDecryption>;
}

/** Returns the branch with its encrypted objects decrypted, and those that do not decrypt moved to its errors. */
export async function decryptBranch(
  branch: BranchRead,
  secrets: AgentSecrets | undefined,
): Promise<BranchRead> {
  if (branch.type !== 'objects' || !branch.objects.some((o) => isEncryptedObject(o.manifest))) return branch;
  const objects: DesiredObject[] = [];
  const errors = [...branch.errors];
  const keyring = await readIdentities(secrets);
  const kept = new Map<string, SopsDecryption>();
  const plaintexts = new Set<string>();
  for (const desired of branch.objects) {
    if (!isEncryptedObject(desired.manifest)) {
      objects.push(desired);
      continue;
    }
    let result: SopsDecryption;
    if (typeof keyring === 'string') result = { ok: false, reason: keyring };
    else {
      result = secrets!.cache.get(desired.digest) ?? (await decryptSopsDocument(desired.manifest, keyring));
      kept.set(desired.digest, result);
    }
    if (result.ok) {
      objects.push({ ...desired, manifest: result.object });
      for (const value of result.values) plaintexts.add(value);
    } else {
      const message = `${refLabel(desired.ref)}: not decrypted, not applied (it keeps its last applied state): ${result.reason}`;
      errors.push({ path: desired.path, key: refKey(desired.ref), message });
    }
  }
  if (secrets) {
    secrets.cache = kept;
    secrets.plaintexts = plaintexts;
  }
  return { ...branch, objects, errors };
}

async function readIdentities(secrets: AgentSecrets | undefined): Promise<AgeIdentity[] | string> {
  if (!secrets)
    return 'this agent has no age identity (gitfleet agent --age-identity FILE or --age-identity-secret NS/NAME)';
  try {
    return await secrets.identities();
  } catch (error) {
    return `its age identities could not be read: ${(error as Error).message}`;
  }
}
