// The flags every loop shares (hub, agent; --log-level also ui, render --watch, status --watch),
// declared apart from observability.ts so a command's --help loads no metrics library.
import type { FlagSpec } from './command-line.js';
import { logLevels } from '../loops/runtime/logger.js';

/** `--metrics-addr HOST:PORT` (hub, agent). */
export const metricsAddrFlag = {
  type: 'string',
  value: 'HOST:PORT',
  help: 'serve /metrics, /healthz and /readyz here (default: off; the host defaults to 127.0.0.1)',
} as const satisfies FlagSpec;

/** `--log-format text|json` (hub, agent). */
export const logFormatFlag = {
  type: 'string',
  choices: ['text', 'json'],
  default: 'text',
  help: 'log lines on stderr as text, or as one JSON object per line',
} as const satisfies FlagSpec;

/** `--log-level debug|info|warn|error` (hub, agent, ui, render --watch, status --watch). */
export const logLevelFlag = {
  type: 'string',
  choices: logLevels,
  default: 'info',
  help: 'the least severe log lines shown: debug adds the passes that changed nothing; warn and error show only problems',
} as const satisfies FlagSpec;
