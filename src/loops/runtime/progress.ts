// How a long step says how far it got (the agent's first apply of thousands of objects): the
// step calls it after each unit with how many are done of how many; what is shown, and how
// often, is the caller's (cli/terminal-progress.ts: a line every few seconds on a terminal).

/** Told after each unit of a step: `done` of `total`. */
export type Progress = (done: number, total: number) => void;
