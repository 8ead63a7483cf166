// The renderer of HelmSources and KustomizeSources a command builds from its --helm, --kustomize,
// --render-timeout and --chart-credentials flags (source-flags.ts declares them).
import { readChartCredentialsSync } from '../adapters/render-tools/chart-credentials.js';
import { SourceRenderer } from '../adapters/render-tools/source-renderer.js';
import { UsageError } from './usage-error.js';

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
