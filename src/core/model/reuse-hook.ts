/**
 * How a stage computes one result it may not need to compute: the stage passes its input and
 * the function that computes it; the hook returns `compute(input)`, or a result it kept for the
 * same input. A render given the memo of the last one passes hooks that reuse that render's
 * results (core/render/incremental-render.ts); without a hook a stage computes everything.
 * `compute` is given the result kept for the same item last time, if any, for the parts of it
 * that can still be reused.
 */
export type ReuseHook<Input, Result> = (
  input: Input,
  compute: (input: Input, last?: Result) => Result,
) => Result;
