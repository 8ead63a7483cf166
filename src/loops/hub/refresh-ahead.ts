// The side repositories' refresh started ahead (docs/git-budget.md#render-repositories): a pass
// starts refreshing the status and render repositories the last pass read at the moment it
// starts refreshing the fleet repository, so the three rounds of requests overlap instead of
// waiting for one another (on the budget bench's forge, 0.4 s, 0.9 s and 0.5 s one after another).
// Once the pass has loaded the fleet it knows which repositories it reads: those refreshed ahead
// are not read again, the others (a repository just listed, another branch prefix) are.
// Each repository is still read once a pass.

/** Repositories being refreshed ahead of the pass's need, and when that is done. */
export interface RefreshAhead {
  urls: ReadonlySet<string>;
  /** The branch prefix whose branches were listed. */
  prefix: string;
  done: Promise<unknown>;
}

/** Starts refreshing `urls` with `refreshOne` (which never throws); returns what was started. */
export function startRefreshAhead(
  urls: Iterable<string>,
  prefix: string,
  refreshOne: (url: string) => Promise<unknown>,
): RefreshAhead {
  const started = new Set(urls);
  return { urls: started, prefix, done: Promise.all([...started].map(refreshOne)) };
}

/** Returns the repositories of `urls` that `ahead` did not refresh (all of them when it listed another prefix or none started), once it is done. */
export async function notRefreshedAhead(
  urls: Iterable<string>,
  prefix: string,
  ahead: RefreshAhead | undefined,
): Promise<string[]> {
  const wanted = [...new Set(urls)];
  if (!ahead) return wanted;
  await ahead.done;
  return ahead.prefix === prefix ? wanted.filter((url) => !ahead.urls.has(url)) : wanted;
}
