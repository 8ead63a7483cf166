// Text from the fleet (object names, messages quoting them) goes into chat messages that render
// markup: Slack's mrkdwn (`*bold*`, `<url|link>`, `<!channel>`) and the Markdown subset of Teams'
// Adaptive Card TextBlocks (`[text](url)`, `**bold**`, `# heading`). Neither has a reliable
// escape character, so a markup character is neutralized by a zero-width space after it (it reads
// the same, it no longer pairs into markup), and Slack's `&`, `<`, `>` become the entities Slack's
// docs ask for: a name can neither mention the channel, nor link elsewhere, nor restyle the
// message. Control characters (a newline forging a second line, a terminal escape, a bidi
// override) are written as visible escapes first (quote-text.ts).
import { escapeControls } from '../model/quote-text.js';

/** The chat flavours whose markup is neutralized. */
export type ChatFlavour = 'slack' | 'teams';

const zeroWidthSpace = '\u200b';
const slackMarkup = /[*_~`|]/g;
const teamsMarkup = /[*_~`|[\]()#>!+\-<\\]/g;

/** Returns the text safe to place in a message of that flavour, at most `max` characters (default 1,000). */
export function escapeChatText(text: string, flavour: ChatFlavour, max = 1000): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  const visible = escapeControls(cut);
  if (flavour === 'slack')
    return visible
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(slackMarkup, (c) => c + zeroWidthSpace);
  return visible.replace(teamsMarkup, (c) => c + zeroWidthSpace);
}
