// The age identities an agent decrypts with: one or more (during a key rotation, the old and the
// new), read from an identity file or a Secret's data. They stay in memory; only their public
// recipients are ever shown.
import { identityToRecipient } from 'age-encryption';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** An age identity file (or Secret) that does not hold usable identities. */
export class AgeIdentityError extends GitfleetError<'AgeIdentity'> {
  constructor(message: string) {
    super(message, { code: 'AgeIdentity', terminal: true });
  }
}

/** An identity and the recipient it answers to. */
export interface AgeIdentity {
  identity: string;
  recipient: string;
}

/** Returns the identities in an age identity file's text (`#` comments and blank lines skipped); `source` names it in errors. */
export async function readAgeIdentities(text: string, source: string): Promise<AgeIdentity[]> {
  const out: AgeIdentity[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (!line.startsWith('AGE-SECRET-KEY-'))
      throw new AgeIdentityError(`${source}: line ${i + 1}: not an age identity (AGE-SECRET-KEY-1...)`);
    let recipient: string;
    try {
      recipient = await identityToRecipient(line);
    } catch {
      throw new AgeIdentityError(`${source}: line ${i + 1}: not a valid age identity`);
    }
    out.push({ identity: line, recipient });
  }
  if (out.length === 0) throw new AgeIdentityError(`${source}: holds no age identity`);
  return out;
}
