// The explanation `gitfleet log <object>` shows above its history: the object's binding record
// on the bindings head, explained per cluster from what the hub and the agents last wrote
// (core/status/explain-template.ts, read as `gitfleet status` reads: the hub's aggregated
// status where it is current, no source labels). A repository without a bindings branch, or an
// object no binding record names, has none: the history is still printed.
import { isGitfleetError } from '../../core/model/gitfleet-error.js';
import { groupOf } from '../../core/model/object-ref.js';
import type { ObjectSpec } from '../../core/review/parse-object-spec.js';
import { templateExplainer } from '../../core/status/explain-template.js';
import type { TemplateExplanation } from '../../core/status/explanation.js';
import { readFleetStatus } from '../../loops/views/read-fleet-status.js';
import { statusRepositoryOpener } from './open-status-repository.js';

/** Returns the object's explanation now, or why there is none. */
export async function explainObject(opts: {
  repo: string;
  branchPrefix: string;
  object: ObjectSpec;
}): Promise<{ explanation: TemplateExplanation } | { none: string }> {
  let data;
  try {
    data = await readFleetStatus({
      dir: opts.repo,
      branchPrefix: opts.branchPrefix,
      objects: 'fresh',
      templateLabels: false,
      openStatusRepository: statusRepositoryOpener({ branchPrefix: opts.branchPrefix, mirrorKey: 'log' }),
    });
  } catch (error) {
    if (isGitfleetError(error)) return { none: error.message };
    throw error;
  }
  const { object } = opts;
  const binding = data.bindings.find(
    (b) =>
      b.resource.kind.toLowerCase() === object.kind.toLowerCase() &&
      b.resource.namespace === object.namespace &&
      b.resource.name === object.name &&
      (object.group === undefined ||
        groupOf(b.resource.apiVersion).toLowerCase() === object.group.toLowerCase()),
  );
  if (binding === undefined)
    return { none: `no binding record on ${opts.branchPrefix}bindings names it now` };
  return { explanation: templateExplainer(data)(binding) };
}
