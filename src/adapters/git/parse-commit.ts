// A commit object as git writes it: header lines (`tree`, `parent`…, `author`, `committer`, and
// others such as `gpgsig` that are skipped), a blank line, then the message. One parser for every
// reader of commits (the hub's state, the agent's branch and deletion allowances, the push walk).

/** Who wrote or committed a commit, as its header names them, and when (seconds since the epoch). */
export interface CommitSignature {
  name: string;
  email: string;
  /** Absent when the line has no time. */
  timestamp?: number;
}

/** What a commit's header and message say; `tree` is undefined when the header has none. */
export interface ParsedCommit {
  tree: string | undefined;
  parents: string[];
  author: CommitSignature | undefined;
  committer: CommitSignature | undefined;
  message: string;
}

/** Returns the header fields and the message of a commit object's content. */
export function parseCommit(content: Uint8Array | string): ParsedCommit {
  const text = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
  const headerEnd = text.indexOf('\n\n');
  const header = headerEnd < 0 ? text : text.slice(0, headerEnd);
  const parsed: ParsedCommit = {
    tree: undefined,
    parents: [],
    author: undefined,
    committer: undefined,
    message: headerEnd < 0 ? '' : text.slice(headerEnd + 2),
  };
  for (const line of header.split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree' && parsed.tree === undefined) parsed.tree = value;
    else if (key === 'parent') parsed.parents.push(value);
    else if (key === 'author' && parsed.author === undefined) parsed.author = signatureOf(value);
    else if (key === 'committer' && parsed.committer === undefined) parsed.committer = signatureOf(value);
  }
  return parsed;
}

// `Name <email> 1700000000 +0000`: the seconds are UTC whatever the zone.
function signatureOf(value: string): CommitSignature {
  const m = /^(.*) <([^>]*)> \d+ [+-]\d{4}$/.exec(value);
  const seconds = / (\d+) [+-]\d{4}$/.exec(value)?.[1];
  return {
    name: m?.[1] ?? '',
    email: m?.[2] ?? '',
    ...(seconds === undefined ? {} : { timestamp: Number(seconds) }),
  };
}

/** Returns the committer time of a commit object's content (the epoch when its header has none). */
export function committedAt(content: Uint8Array): Date {
  const header = Buffer.from(content.subarray(0, 4096)).toString('utf8');
  const seconds = /^committer .* (\d+) [+-]\d{4}$/m.exec(header)?.[1];
  return new Date(seconds === undefined ? 0 : Number(seconds) * 1000);
}
