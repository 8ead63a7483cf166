// The text of a git revision that names one commit (gitrevisions(7)), parsed into a starting
// point and the steps taken from it, so the adapter that reads the repository
// (adapters/source/resolve-revision.ts) only walks objects. The forms, as git reads them:
//
// | form                         | meaning                                                        |
// |------------------------------|----------------------------------------------------------------|
// | `<sha1>`, `<abbrev>`         | an object id, full or abbreviated (4+ hex digits)              |
// | `<refname>`                  | `<r>`, refs/<r>, refs/tags/<r>, refs/heads/<r>, refs/remotes/<r>, refs/remotes/<r>/HEAD, first found |
// | `<tag>-<n>-g<abbrev>`        | `git describe` output: the abbreviated id after `-g`           |
// | `@`, `HEAD`                  | HEAD                                                           |
// | `<rev>~<n>`, `<rev>~`        | the n-th first-parent ancestor (n defaults to 1)               |
// | `<rev>^<n>`, `<rev>^`        | the n-th parent (`^0`: the commit itself)                      |
// | `<rev>^{commit}`, `<rev>^{}` | peel tags to the commit / to the first object that is no tag   |
// | `<rev>^{tree}`, `^{blob}`    | a tree or blob: never a commit, so always an error here        |
// | `<rev>^{/<regex>}`           | the youngest commit reachable from rev whose message matches   |
// | `:/<regex>`                  | the youngest commit reachable from any ref whose message matches |
// | `<ref>@{<n>}`, `@{<n>}`      | the n-th prior value of the ref (of the current branch) in its reflog |
// | `<branch>@{upstream}`, `@{u}`| the branch's upstream (branch.<b>.remote and .merge)           |
//
// git reads the suffixes from the right, so the innermost step is the leftmost one, and the steps
// here are in the order they are applied. Ranges (`a..b`, `^a`, `a^!`, `a^@`) and paths
// (`rev:path`) name no single commit and are refused with a message saying so.

/** Where a revision starts. */
export type RevisionBase =
  | { type: 'name'; name: string }
  | { type: 'head' }
  | { type: 'reflog'; ref: string; n: number }
  | { type: 'upstream'; branch: string }
  | { type: 'messageSearch'; pattern: string };

/** One step from an object to another. */
export type RevisionStep =
  | { type: 'ancestor'; n: number }
  | { type: 'parent'; n: number }
  | { type: 'peel'; to: 'commit' | 'tree' | 'blob' | 'tag' | 'object' | 'nonTag' }
  | { type: 'messageSearch'; pattern: string };

export interface Revision {
  base: RevisionBase;
  steps: RevisionStep[];
}

export type ParsedRevision = { ok: true; revision: Revision } | { ok: false; reason: string };

const PEEL_TYPES = new Set(['commit', 'tree', 'blob', 'tag', 'object']);

/** Returns the parsed revision, or why its text names no single commit. */
export function parseRevision(text: string): ParsedRevision {
  if (text.length === 0) return refuse('an empty revision');
  if (text.startsWith(':/')) return messageSearch(text.slice(2));
  if (text.startsWith('^')) return refuse('a leading ^ excludes commits: it is a range, not one commit');
  if (text.includes('..')) return refuse('a range (..), not one commit');
  if (/\^[!@-]$/.test(text)) return refuse('a range (^!, ^@, ^-), not one commit');
  if (text.includes(':')) return refuse('<rev>:<path> names a file or a directory, not a commit');
  const end = baseEnd(text);
  const name = text.slice(0, end);
  let at = end;
  let base: RevisionBase;
  if (text.startsWith('@{', at)) {
    const close = text.indexOf('}', at);
    if (close < 0) return refuse(`an unclosed @{ at ${at + 1}`);
    const reflog = reflogBase(name, text.slice(at + 2, close));
    if (!reflog.ok) return reflog;
    base = reflog.base;
    at = close + 1;
  } else if (name === '') {
    return refuse('a suffix with nothing before it');
  } else {
    base = name === '@' || name === 'HEAD' ? { type: 'head' } : { type: 'name', name };
  }
  const steps = parseSteps(text, at);
  if (!steps.ok) return steps;
  return { ok: true, revision: { base, steps: steps.steps } };
}

// The base ends at the first `~`, `^` or `@{`: none of them can be part of a ref name.
function baseEnd(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '~' || c === '^' || (c === '@' && text[i + 1] === '{')) return i;
  }
  return text.length;
}

function reflogBase(
  name: string,
  body: string,
): { ok: true; base: RevisionBase } | { ok: false; reason: string } {
  if (/^\d+$/.test(body))
    return { ok: true, base: { type: 'reflog', ref: name === '@' ? '' : name, n: Number(body) } };
  if (/^(u|upstream)$/i.test(body))
    return { ok: true, base: { type: 'upstream', branch: name === '@' ? '' : name } };
  if (/^-\d+$/.test(body))
    return refuse(`@{${body}} (a branch checked out before) is not supported: name the branch`);
  if (/^push$/i.test(body)) return refuse('@{push} is not supported: name the remote-tracking branch');
  return refuse(`@{${body}} (a reflog entry by date) is not supported: use @{<n>} or a commit id`);
}

function parseSteps(
  text: string,
  from: number,
): { ok: true; steps: RevisionStep[] } | { ok: false; reason: string } {
  const steps: RevisionStep[] = [];
  let at = from;
  while (at < text.length) {
    const c = text[at];
    if (c === '~' || (c === '^' && text[at + 1] !== '{')) {
      const digits = /^\d*/.exec(text.slice(at + 1))![0];
      const n = digits === '' ? 1 : Number(digits);
      steps.push(c === '~' ? { type: 'ancestor', n } : { type: 'parent', n });
      at += 1 + digits.length;
    } else if (c === '^') {
      const close = closingBrace(text, at + 2);
      if (close < 0) return refuse(`an unclosed ^{ at ${at + 1}`);
      const body = text.slice(at + 2, close);
      if (body.startsWith('/')) {
        const search = searchPattern(body.slice(1));
        if (!search.ok) return search;
        steps.push({ type: 'messageSearch', pattern: search.pattern });
      } else if (body === '') steps.push({ type: 'peel', to: 'nonTag' });
      else if (PEEL_TYPES.has(body)) steps.push({ type: 'peel', to: body as 'commit' });
      else return refuse(`^{${body}}: not an object type (commit, tree, blob, tag, object) or /<regex>`);
      at = close + 1;
    } else {
      return refuse(`unexpected '${c}' at ${at + 1}`);
    }
  }
  return { ok: true, steps };
}

// A `}` that ends the text or is followed by another suffix: a regex may hold braces of its own.
function closingBrace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] !== '}') continue;
    const next = text[i + 1];
    if (next === undefined || next === '~' || next === '^') return i;
  }
  return -1;
}

function messageSearch(body: string): ParsedRevision {
  const search = searchPattern(body);
  if (!search.ok) return search;
  return { ok: true, revision: { base: { type: 'messageSearch', pattern: search.pattern }, steps: [] } };
}

// gitrevisions(7): a pattern starting with `!` is special: `!-` negates, `!!` is a literal `!`.
function searchPattern(body: string): { ok: true; pattern: string } | { ok: false; reason: string } {
  if (body.startsWith('!!')) return { ok: true, pattern: body.slice(1) };
  if (body.startsWith('!-')) return refuse('a negated message search (/!-) is not supported');
  if (body.startsWith('!'))
    return refuse('a message search starting with ! is reserved by git (use !! for a literal !)');
  if (body === '') return refuse('an empty message search');
  return { ok: true, pattern: body };
}

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** Returns the abbreviated id of `git describe` output (`v1.2-3-gabc1234` → `abc1234`), if the name has that form. */
export function describedAbbrev(name: string): string | undefined {
  // As git's get_describe_name: the last character that is no hex digit must be a `g` after a `-`.
  const m = /-g([0-9a-fA-F]{4,40})$/.exec(name);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** Returns the full ref names a short name may stand for, in git's order (refs.c ref_rev_parse_rules). */
export function refCandidates(name: string): string[] {
  return [
    name,
    `refs/${name}`,
    `refs/tags/${name}`,
    `refs/heads/${name}`,
    `refs/remotes/${name}`,
    `refs/remotes/${name}/HEAD`,
  ];
}

/**
 * Returns why a text is not a branch the hub can follow, or undefined when it is one: the hub
 * renders each new commit of its source branch, so a revision that stays on one commit
 * (`HEAD~1`, `v1.2^{commit}`, a commit id, `@`/HEAD, a tag) would never move.
 */
export function branchNameProblem(text: string): string | undefined {
  if (text === '' || text === '@' || text === 'HEAD') return 'it names no branch';
  if (/[~^:?*[\\\s]|\.\.|@\{/.test(text) || text.startsWith(':/'))
    return 'it is a revision of one commit (~, ^, :, @{…}), which never moves';
  if (/^[0-9a-fA-F]{7,40}$/.test(text)) return 'it is a commit id, which never moves';
  if (text.startsWith('refs/') && !text.startsWith('refs/heads/'))
    return 'only refs under refs/heads/ are branches (a tag or a remote-tracking ref is not written by a push to this repository)';
  if (
    text.startsWith('/') ||
    text.endsWith('/') ||
    text.endsWith('.lock') ||
    text.split('/').some((p) => p === '' || p.startsWith('.'))
  )
    return 'it is not a valid branch name (git check-ref-format)';
  return undefined;
}
