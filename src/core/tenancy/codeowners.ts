// The forge's code owners of a path (GitHub's and GitLab's CODEOWNERS), for `validate`'s report of
// who may change a Tenant file (docs/tenants.md#protecting-the-tenant-files). The rules, as
// GitHub documents them:
//
// | rule                  | reading                                                               |
// |-----------------------|-----------------------------------------------------------------------|
// | a line                | a pattern, then its owners (`@user`, `@org/team`, an e-mail); `#` starts a comment; a pattern without owners makes the path ownerless |
// | precedence            | the last line whose pattern matches the path wins                     |
// | `/` at the start      | anchored at the repository root; a `/` inside anchors it too (as in .gitignore) |
// | no `/` but at the end | matches at any depth                                                  |
// | `/` at the end, or a directory | everything under it (`docs/*`: the files of docs only)       |
// | `*`, `?`, `**`        | any characters but `/`, one character but `/`, any characters        |
// | `[Section]` (GitLab)  | a section header; its owners are the default of its lines without owners. Sections read as one list here, the last match winning |
//
// Where the forge looks (the first that exists): `.github/CODEOWNERS`, `CODEOWNERS`,
// `docs/CODEOWNERS` (GitHub), `.gitlab/CODEOWNERS` (GitLab).

/** Where a forge reads CODEOWNERS from, in the order GitHub looks, then GitLab's own place. */
export const codeownersPaths: readonly string[] = [
  '.github/CODEOWNERS',
  'CODEOWNERS',
  'docs/CODEOWNERS',
  '.gitlab/CODEOWNERS',
];

/** One rule of a CODEOWNERS file. */
export interface CodeownersRule {
  /** 1-based line in the file. */
  line: number;
  pattern: string;
  owners: string[];
  matches: (path: string) => boolean;
}

/** Returns the rules of a CODEOWNERS file, in file order. */
export function parseCodeowners(text: string): CodeownersRule[] {
  const rules: CodeownersRule[] = [];
  let sectionOwners: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const section = /^\^?\[[^\]]+\](?:\[\d+\])?\s*(.*)$/.exec(line);
    if (section) {
      sectionOwners = section[1]!.split(/\s+/).filter((o) => o !== '');
      continue;
    }
    const [pattern, ...owners] = line.split(/\s+/);
    rules.push({
      line: i + 1,
      pattern: pattern!,
      owners: owners.length > 0 ? owners : sectionOwners,
      matches: matcherOf(pattern!),
    });
  }
  return rules;
}

/** Returns the rule that decides a path's owners (the last that matches), or undefined when none does. */
export function ownersRuleOf(rules: readonly CodeownersRule[], path: string): CodeownersRule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) if (rules[i]!.matches(path)) return rules[i];
  return undefined;
}

function matcherOf(pattern: string): (path: string) => boolean {
  const directory = pattern.endsWith('/');
  const body = pattern.replace(/^\//, '').replace(/\/$/, '');
  const anchored = pattern.startsWith('/') || body.includes('/');
  let source = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '*' && body[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // `docs/*` takes the files of docs, not those of its subfolders (GitHub's example).
  const below = directory ? '/.*' : body.endsWith('*') && !body.endsWith('**') ? '' : '(/.*)?';
  const regex = new RegExp(`${anchored ? '^' : '(^|/)'}${source}${below}$`);
  return (path) => regex.test(path);
}
