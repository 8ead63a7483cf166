// The flags of the commands that render a fleet's HelmSources and KustomizeSources (hub, render,
// validate, diff; docs/sources.md): where the tools are and how long one run may take.
import { SourceRenderer } from '../adapters/render-tools/source-renderer.js';
import { UsageError } from './usage-error.js';

/** `--helm`, `--kustomize` and `--render-timeout`. */
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
    help: 'how long one helm or kustomize run may take before it is stopped and its source fails to render',
  },
} as const;

/** Returns the renderer of the flags' values, finding the tools in the process's environment. */
export function sourceRendererOf(values: {
  helm?: string | undefined;
  kustomize?: string | undefined;
  'render-timeout': number;
}): SourceRenderer {
  if (!(values['render-timeout'] > 0)) throw new UsageError('--render-timeout must be above 0, like 60s');
  return new SourceRenderer({
    ...(values.helm !== undefined ? { helm: values.helm } : {}),
    ...(values.kustomize !== undefined ? { kustomize: values.kustomize } : {}),
    env: process.env,
    timeoutMs: values['render-timeout'],
  });
}
