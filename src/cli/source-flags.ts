// The flags of the commands that render a fleet's HelmSources and KustomizeSources (hub, render,
// validate, diff; docs/sources.md): where the tools are, how long one run may take, and the
// credentials of chart repositories and registries (a file of the hub's, never the fleet's).
import { readChartCredentialsSync } from '../adapters/render-tools/chart-credentials.js';
import { SourceRenderer } from '../adapters/render-tools/source-renderer.js';
import { UsageError } from './usage-error.js';

/** `--helm`, `--kustomize`, `--render-timeout` and `--chart-credentials`. */
export const sourceFlags = {
  helm: {
    type: 'string',
    value: 'PATH',
    help: 'the helm binary that renders HelmSources (default: $GITFLEET_HELM, else helm on PATH)',
  },
  kustomize: {
    type: 'string',
    value: 'PATH',
    help: 'the kustomize binary that builds KustomizeSources (default: $GITFLEET_KUSTOMIZE, else kustomize on PATH)',
  },
  'render-timeout': {
    type: 'duration',
    value: 'DURATION',
    default: '60s',
    help: 'how long one helm or kustomize run (or one chart pull) may take before it is stopped and its source fails to render',
  },
  'chart-credentials': {
    type: 'string',
    value: 'FILE',
    help: 'a YAML or JSON map of chart repository URLs and registry hosts to username/password or token, for pulling charts (default: anonymous pulls)',
  },
} as const;

/** Returns the renderer of the flags' values, finding the tools in the process's environment. */
export function sourceRendererOf(values: {
  helm?: string | undefined;
  kustomize?: string | undefined;
  'render-timeout': number;
  'chart-credentials'?: string | undefined;
}): SourceRenderer {
  if (!(values['render-timeout'] > 0)) throw new UsageError('--render-timeout must be above 0, like 60s');
  const credentials = values['chart-credentials'];
  // Checked now, so a typo stops the command at once; read again at each pull (a rotated password).
  if (credentials !== undefined)
    try {
      readChartCredentialsSync(credentials);
    } catch (error) {
      throw new UsageError(`--chart-credentials ${(error as Error).message}`);
    }
  return new SourceRenderer({
    ...(credentials !== undefined ? { chartCredentials: credentials } : {}),
    ...(values.helm !== undefined ? { helm: values.helm } : {}),
    ...(values.kustomize !== undefined ? { kustomize: values.kustomize } : {}),
    env: process.env,
    timeoutMs: values['render-timeout'],
  });
}
