// SSH signatures checked as `ssh-keygen -Y verify -n git` checks them with git's allowed_signers
// file: the key must be listed, allowed in the "git" namespace, valid at the time of the check,
// and (when the caller names one) listed for the required principal. Unlike git, which judges
// validity at the commit's own committer time, the time is the checker's: a committer time is
// written by the signer, so a leaked expired key could otherwise backdate its commits.
import type { SignatureSigner, SignatureVerdict } from '../../core/model/signature-verdict.js';
import { matchesPatternList, type AllowedSigner } from './allowed-signers.js';
import type { FormatVerifier } from './commit-verifier.js';
import { parseSshsig, verifySshsig, type Sshsig } from './sshsig.js';

const namespace = 'git';

/** Returns the verifier of SSH signatures against allowed_signers entries; `principal`, when given, must be listed for the key. */
export function sshVerifier(input: {
  signers: readonly AllowedSigner[];
  principal?: string;
}): FormatVerifier {
  return {
    verifySignature({ commit, payload, signature, at }) {
      return Promise.resolve(judge({ ...input, commit, payload, signature, at }));
    },
  };
}

interface JudgeInput {
  signers: readonly AllowedSigner[];
  principal?: string;
  commit: string;
  payload: Buffer;
  signature: string;
  at: Date;
}

type Refusal = Pick<Exclude<SignatureVerdict, { ok: true }>, 'problem' | 'detail'>;

function judge(input: JudgeInput): SignatureVerdict {
  const { commit } = input;
  let sig: Sshsig;
  try {
    sig = parseSshsig(input.signature);
  } catch (error) {
    const detail = `the SSH signature: ${(error as Error).message}`;
    return { ok: false, commit, problem: 'Malformed', detail, signer: undefined };
  }
  const entries = input.signers.filter((e) => e.key.blob.equals(sig.publicKey.blob));
  const signer: SignatureSigner = {
    format: 'ssh',
    keyId: sig.publicKey.fingerprint,
    names: unique(entries.flatMap((e) => e.principals)),
  };
  const refusal = refusalOf(input, sig, entries);
  return refusal ? { ok: false, commit, ...refusal, signer } : { ok: true, commit, signer };
}

/** Why the signature is refused, in the order ssh-keygen checks; undefined when it is good. */
function refusalOf(input: JudgeInput, sig: Sshsig, entries: readonly AllowedSigner[]): Refusal | undefined {
  if (sig.namespace !== namespace)
    return {
      problem: 'WrongNamespace',
      detail: `signed for namespace "${sig.namespace}", not "${namespace}"`,
    };
  if (entries.length === 0) {
    const detail = `${sig.publicKey.type} key ${sig.publicKey.fingerprint} is not among the allowed signers`;
    return { problem: 'UnknownKey', detail };
  }
  const forPrincipal =
    input.principal === undefined
      ? entries
      : entries.filter((e) => matchesPatternList(input.principal ?? '', e.principals));
  if (forPrincipal.length === 0)
    return { problem: 'WrongSigner', detail: `the key is not listed for ${input.principal}` };
  if (sig.publicKey.key === undefined) {
    const detail = `a ${sig.publicKey.type} key; gitfleet verifies ed25519 SSH keys only`;
    return { problem: 'UnsupportedKey', detail };
  }
  if (!verifySshsig(sig, input.payload)) {
    const detail = 'the signature does not match the commit (changed, or copied from another commit)';
    return { problem: 'BadSignature', detail };
  }
  return entryRefusal(forPrincipal, input.at);
}

/** Why none of the key's entries allows it in the namespace at `at`; undefined when one does. */
function entryRefusal(forPrincipal: readonly AllowedSigner[], at: Date): Refusal | undefined {
  const inNamespace = forPrincipal.filter(
    (e) => e.namespaces === undefined || matchesPatternList(namespace, e.namespaces),
  );
  if (inNamespace.length === 0) {
    const detail = `the key is not allowed in namespace "${namespace}" (allowed signers line ${forPrincipal[0]?.line})`;
    return { problem: 'WrongNamespace', detail };
  }
  const valid = inNamespace.filter(
    (e) =>
      (e.validAfter === undefined || at >= e.validAfter) &&
      (e.validBefore === undefined || at < e.validBefore),
  );
  if (valid.length > 0) return undefined;
  const expired = inNamespace.find((e) => e.validBefore !== undefined && at >= e.validBefore);
  if (expired) {
    const detail = `the key was valid before ${expired.validBefore?.toISOString()} (allowed signers line ${expired.line})`;
    return { problem: 'KeyExpired', detail };
  }
  const early = inNamespace[0];
  const detail = `the key is valid after ${early?.validAfter?.toISOString()} (allowed signers line ${early?.line})`;
  return { problem: 'KeyNotYetValid', detail };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
