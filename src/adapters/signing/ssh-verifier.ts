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

function judge(input: {
  signers: readonly AllowedSigner[];
  principal?: string;
  commit: string;
  payload: Buffer;
  signature: string;
  at: Date;
}): SignatureVerdict {
  const { commit } = input;
  let sig: Sshsig;
  try {
    sig = parseSshsig(input.signature);
  } catch (error) {
    return {
      ok: false,
      commit,
      problem: 'Malformed',
      detail: `the SSH signature: ${(error as Error).message}`,
      signer: undefined,
    };
  }
  const entries = input.signers.filter((e) => e.key.blob.equals(sig.publicKey.blob));
  const signer: SignatureSigner = {
    format: 'ssh',
    keyId: sig.publicKey.fingerprint,
    names: unique(entries.flatMap((e) => e.principals)),
  };
  const refuse = (
    problem: Exclude<SignatureVerdict, { ok: true }>['problem'],
    detail: string,
  ): SignatureVerdict => ({ ok: false, commit, problem, detail, signer });
  if (sig.namespace !== namespace)
    return refuse('WrongNamespace', `signed for namespace "${sig.namespace}", not "${namespace}"`);
  if (entries.length === 0)
    return refuse(
      'UnknownKey',
      `${sig.publicKey.type} key ${sig.publicKey.fingerprint} is not among the allowed signers`,
    );
  const forPrincipal =
    input.principal === undefined
      ? entries
      : entries.filter((e) => matchesPatternList(input.principal ?? '', e.principals));
  if (forPrincipal.length === 0) return refuse('WrongSigner', `the key is not listed for ${input.principal}`);
  if (sig.publicKey.key === undefined)
    return refuse('UnsupportedKey', `a ${sig.publicKey.type} key; gitfleet verifies ed25519 SSH keys only`);
  if (!verifySshsig(sig, input.payload))
    return refuse(
      'BadSignature',
      'the signature does not match the commit (changed, or copied from another commit)',
    );
  const inNamespace = forPrincipal.filter(
    (e) => e.namespaces === undefined || matchesPatternList(namespace, e.namespaces),
  );
  if (inNamespace.length === 0)
    return refuse(
      'WrongNamespace',
      `the key is not allowed in namespace "${namespace}" (allowed signers line ${forPrincipal[0]?.line})`,
    );
  const valid = inNamespace.filter(
    (e) =>
      (e.validAfter === undefined || input.at >= e.validAfter) &&
      (e.validBefore === undefined || input.at < e.validBefore),
  );
  if (valid.length > 0) return { ok: true, commit, signer };
  const expired = inNamespace.find((e) => e.validBefore !== undefined && input.at >= e.validBefore);
  if (expired)
    return refuse(
      'KeyExpired',
      `the key was valid before ${expired.validBefore?.toISOString()} (allowed signers line ${expired.line})`,
    );
  const early = inNamespace[0];
  return refuse(
    'KeyNotYetValid',
    `the key is valid after ${early?.validAfter?.toISOString()} (allowed signers line ${early?.line})`,
  );
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
