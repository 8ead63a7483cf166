// Where the hub publishes this cluster's branch, as the bindings branch records it
// (core/model/render-repository.ts): `.gitfleet/render-repositories/<cluster>` holds the render
// repository's URL or path; no file means the fleet repository. Read from the fleet repository's
// bindings head, which the agent's mirror holds already: no request of its own.
import { withCache } from '../../adapters/git/read-git-object.js';
import { readFileNow } from '../../adapters/git/read-typed-object.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { renderLocationPath } from '../../core/model/render-repository.js';
import { bindingsRef } from '../../core/publish/hub-refs.js';

/** Returns the URL or path the bindings head names for the cluster's branch, or undefined (the fleet repository, or no bindings branch). */
export async function readRenderLocation(opts: {
  gitdir: string;
  branchPrefix: string;
  cluster: string;
}): Promise<string | undefined> {
  const head = await readRef(opts.gitdir, bindingsRef(opts.branchPrefix));
  if (head === null) return undefined;
  const source = withCache({ gitdir: opts.gitdir });
  const file = await Promise.resolve().then(() =>
    readFileNow(source, head, renderLocationPath(opts.cluster)),
  );
  const text = file === undefined ? '' : Buffer.from(file).toString('utf8').trim();
  return text === '' ? undefined : text;
}
