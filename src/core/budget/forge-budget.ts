// What each Git host allows a repository, and which host a repository URL is on. The figures
// are the hosts' published ones: GitHub recommends at most 15 Git reads a second and 6 pushes a
// minute per repository; GitLab.com limits Git operations over HTTP to 600 a minute per user and
// project, reads and pushes counted together. A generic host (a local path, a self-run
// `git http-backend`) states no limit.

/** The Git hosts gitfleet knows the budget of. */
export type Forge = 'github' | 'gitlab' | 'generic';

/** Every forge, in the order messages list them. */
export const forges: readonly Forge[] = ['github', 'gitlab', 'generic'];

/** What a forge allows one repository. */
export interface ForgeBudget {
  readsPerSecond: number;
  pushesPerMinute: number;
  /**
   * Reads and pushes spend one allowance (GitLab's operations a minute): a repository is within
   * when reads × 60 + pushes fit `pushesPerMinute`, as well as each on its own.
   */
  sharedOperationsPerMinute?: number;
}

/** Returns the budget of one repository on `forge` (generic: unlimited, as Infinity). */
export function forgeBudget(forge: Forge): ForgeBudget {
  switch (forge) {
    case 'github':
      return { readsPerSecond: 15, pushesPerMinute: 6 };
    case 'gitlab':
      return { readsPerSecond: 10, pushesPerMinute: 600, sharedOperationsPerMinute: 600 };
    case 'generic':
      return { readsPerSecond: Infinity, pushesPerMinute: Infinity };
  }
}

/**
 * Returns the forge a repository lives on, from its URL's host: github.com (and its subdomains)
 * is github, gitlab.com or any host whose name holds "gitlab" is gitlab; a local path, an
 * unparsable URL and every other host are generic.
 */
export function forgeOfRepo(repo: string): Forge {
  const host = hostOf(repo);
  if (host === undefined) return 'generic';
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  if (host.includes('gitlab')) return 'gitlab';
  return 'generic';
}

function hostOf(repo: string): string | undefined {
  if (!/^https?:\/\//i.test(repo)) return undefined;
  try {
    return new URL(repo).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
