// The render with the fleet's ReviseReplica scripts run off the event loop. The render is pure
// and synchronous, and which ReviseReplica calls it makes (a template and one cluster's replicas)
// is known only once it has scheduled, so the shell renders once holding the interpreter's
// calls: a call not made ahead fails at once and is kept. When calls were kept, they run ahead
// in the worker threads while the event loop answers (health checks, lease renewal), and the
// render runs again on the same input, finding every result made. A render that kept nothing
// (no such script, or every copy reused from the memo) is the result as it is.
import type { Snapshot } from '../../core/model/snapshot.js';
import { renderFleet, type RenderOptions, type RenderResult } from '../../core/render/render-fleet.js';

/** Returns renderFleet's result, its interpreter's calls made ahead, off the event loop. */
export async function renderOffLoop(snapshot: Snapshot, options: RenderOptions = {}): Promise<RenderResult> {
  const interpreter = snapshot.fleet.interpreter;
  if (interpreter?.holdCalls === undefined || interpreter.prepareHeld === undefined)
    return renderFleet(snapshot, options);
  interpreter.holdCalls();
  let first: RenderResult;
  try {
    first = renderFleet(snapshot, options);
  } catch (error) {
    // A render that throws must not leave the interpreter holding the next stage's calls.
    await interpreter.prepareHeld();
    throw error;
  }
  const held = await interpreter.prepareHeld();
  if (held === 0) return first;
  // The progress line told of the first render already: the second is the same work again.
  const { progress: _told, ...again } = options;
  return renderFleet(snapshot, again);
}
