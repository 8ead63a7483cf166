// Pulls a chart from an OCI registry with helm itself (`helm pull`), hermetically as a render
// runs (render-source.ts: an empty home of its own, no PATH), bounded by the render deadline and
// output limit. A pinned digest is passed to helm with the reference, so helm fetches by digest
// and refuses another manifest; the digest helm reports is checked against the pin again here.
// Registries on a loopback address are reached over plain HTTP (as Docker and helm treat
// localhost registries); any other over HTTPS. A registry the hub's --chart-credentials file
// names is logged into by a registry config file written into the pull's own empty helm home
// (as `helm registry login` writes it, mode 0600, removed with the pull): never in argv or a log.
import { mkdtemp, readdir, readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeChart, type OciChartRef } from '../../core/model/template-source.js';
import type { RenderTool } from './find-render-tool.js';
import { hermeticToolEnv, type RenderLimits } from './render-source.js';
import { runTool } from './run-tool.js';
import { describeFailure } from './rendered-source.js';
import { credentialForRegistry, credentialSecrets, type CredentialEntries } from './chart-credentials.js';
import { redactSecrets } from '../remote/redact-secrets.js';

/** A chart pulled from its registry: its packaged bytes and the digest of its manifest. */
export type PulledChart = { ok: true; digest: string; bytes: Buffer } | { ok: false; message: string };

const LOOPBACK = /^oci:\/\/(127\.[0-9.]+|localhost|\[::1\])(:[0-9]+)?\//;
const REPORTED_DIGEST = /^Digest: (sha256:[0-9a-f]{64})\s*$/m;
const HELM_MISMATCH = /digest mismatch: (sha256:[0-9a-f]{64}) is not (sha256:[0-9a-f]{64})/;

/** Returns the words of a registry serving another chart than the pinned digest. */
export function digestMismatch(chart: OciChartRef, served: string): string {
  const ref = describeChart({
    oci: chart.oci,
    ...(chart.version !== undefined ? { version: chart.version } : {}),
  });
  return `the registry serves ${served} for ${ref}, not the pinned ${chart.digest}: nothing is rendered from it`;
}

/** Returns the chart helm pulls for a reference, or why it could not. */
export async function pullOciChart(opts: {
  chart: OciChartRef;
  tool: RenderTool;
  limits: RenderLimits;
  credentials?: CredentialEntries | undefined;
}): Promise<PulledChart> {
  const pulled = await pullIn(opts);
  if (pulled.ok || opts.credentials === undefined) return pulled;
  return { ok: false, message: redactSecrets(pulled.message, credentialSecrets(opts.credentials)) };
}

async function pullIn(opts: {
  chart: OciChartRef;
  tool: RenderTool;
  limits: RenderLimits;
  credentials?: CredentialEntries | undefined;
}): Promise<PulledChart> {
  const { chart, tool } = opts;
  const work = await mkdtemp(join(tmpdir(), 'gitfleet-pull-'));
  try {
    const out = join(work, 'out');
    await mkdir(out);
    await mkdir(join(work, 'home', 'plugins'), { recursive: true });
    await writeRegistryLogin(join(work, 'home'), chart, opts.credentials);
    const ref =
      chart.digest === undefined
        ? chart.oci
        : `${chart.oci}${chart.version !== undefined ? `:${chart.version}` : ''}@${chart.digest}`;
    const args = [
      'pull',
      ref,
      ...(chart.digest === undefined && chart.version !== undefined ? ['--version', chart.version] : []),
      ...(LOOPBACK.test(chart.oci) ? ['--plain-http'] : []),
      '--destination',
      out,
    ];
    const outcome = await runTool({
      command: tool.path,
      args,
      cwd: work,
      env: hermeticToolEnv(join(work, 'home')),
      timeoutMs: opts.limits.timeoutMs,
      maxOutputBytes: opts.limits.maxOutputBytes,
    });
    if (outcome.type !== 'ok') {
      const mismatch = HELM_MISMATCH.exec(outcome.stderr);
      if (mismatch !== null && chart.digest !== undefined)
        return { ok: false, message: digestMismatch(chart, mismatch[1]!) };
      return { ok: false, message: `pull: ${describeFailure(outcome, tool, opts.limits, `${work}/`)}` };
    }
    const digest = REPORTED_DIGEST.exec(`${outcome.stdout}\n${outcome.stderr}`)?.[1];
    if (digest === undefined) return { ok: false, message: `pull: ${tool.name} reported no digest for it` };
    if (chart.digest !== undefined && digest !== chart.digest)
      return { ok: false, message: digestMismatch(chart, digest) };
    const [file, ...more] = (await readdir(out)).filter((name) => name.endsWith('.tgz'));
    if (file === undefined || more.length > 0)
      return {
        ok: false,
        message: `pull: ${tool.name} left ${more.length + (file ? 1 : 0)} packaged charts, not one`,
      };
    return { ok: true, digest, bytes: await readFile(join(out, file)) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// helm reads its registry logins from $HELM_CONFIG_HOME/registry/config.json (Docker's format);
// the pull's home is its own and removed after, so the login lives as long as the pull.
async function writeRegistryLogin(
  home: string,
  chart: OciChartRef,
  credentials: CredentialEntries | undefined,
): Promise<void> {
  const host = /^oci:\/\/([^/]+)\//.exec(chart.oci)?.[1];
  const login = credentials && host !== undefined ? credentialForRegistry(credentials, host) : undefined;
  if (login === undefined || host === undefined) return;
  const dir = join(home, 'config', 'registry');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const auth = Buffer.from(`${login.username}:${login.password}`).toString('base64');
  await writeFile(join(dir, 'config.json'), JSON.stringify({ auths: { [host]: { auth } } }), { mode: 0o600 });
}
