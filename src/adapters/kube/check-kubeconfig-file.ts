// A kubeconfig file checked before @kubernetes/client-node reads it, so that a missing file, a
// file that is not YAML, or YAML that is not a kubeconfig is an error that says it is the
// kubeconfig and names the file (the library gives a bare ENOENT or a YAML parser's message).
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { ConfigError } from '../../core/model/config-error.js';

/** Throws a ConfigError naming `file` when it cannot be read, is not YAML or is not a mapping. */
export function checkKubeconfigFile(file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? 'unknown error'})`;
    throw new ConfigError('InvalidKubeconfig', `kubeconfig ${file}: ${what}`);
  }
  let value: unknown;
  try {
    value = yaml.load(text, { filename: file });
  } catch (e) {
    // Only the line: the parser's excerpt would print the file's text, tokens included.
    const line = e instanceof yaml.YAMLException ? e.mark.line + 1 : undefined;
    const at = line === undefined ? '' : ` at line ${line}`;
    throw new ConfigError('InvalidKubeconfig', `kubeconfig ${file}: not valid YAML${at}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(
      'InvalidKubeconfig',
      `kubeconfig ${file}: not a kubeconfig (a YAML mapping with clusters, contexts and users)`,
    );
  }
}
