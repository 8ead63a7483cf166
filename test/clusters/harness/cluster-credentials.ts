// Credentials generated per cluster and per run, so nothing needs a manual step: a static bearer
// token for an admin in system:masters, and the RSA key pair that signs service-account tokens.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Files and secrets of one cluster's credentials. */
export interface ClusterCredentials {
  token: string;
  tokenFile: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

/** Returns a fresh random bearer token. */
export function newToken(): string {
  return randomBytes(24).toString('hex');
}

/** Returns the paths writeClusterCredentials writes under `dir`, to start a program again with the same credentials. */
export function clusterCredentialFiles(
  dir: string,
): Pick<ClusterCredentials, 'tokenFile' | 'serviceAccountKey' | 'serviceAccountPub'> {
  const pki = join(dir, 'pki');
  return {
    tokenFile: join(pki, 'tokens.csv'),
    serviceAccountKey: join(pki, 'sa.key'),
    serviceAccountPub: join(pki, 'sa.pub'),
  };
}

/** Writes the admin `token` file and a fresh service-account key pair under `dir`; returns their paths. */
export function writeClusterCredentials(dir: string, token: string): ClusterCredentials {
  const pki = join(dir, 'pki');
  mkdirSync(pki, { recursive: true, mode: 0o700 });
  // kube-apiserver's static token file: token,user,uid,"group1,group2"
  const tokenFile = join(pki, 'tokens.csv');
  writeFileSync(tokenFile, `${token},gitfleet-admin,gitfleet-admin,"system:masters"\n`, { mode: 0o600 });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccountKey = join(pki, 'sa.key');
  const serviceAccountPub = join(pki, 'sa.pub');
  writeFileSync(serviceAccountKey, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(serviceAccountPub, publicKey.export({ type: 'spki', format: 'pem' }));
  return { token, tokenFile, serviceAccountKey, serviceAccountPub };
}
