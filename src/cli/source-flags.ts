// The flags of the commands that render a fleet's HelmSources and KustomizeSources (hub, render,
// validate, diff; docs/sources.md): where the tools are, how long one run may take, and the
// credentials of chart repositories and registries (a file of the hub's, never the fleet's).
import type { FlagSpec } from './command-line.js';

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
} as const satisfies Record<string, FlagSpec>;
