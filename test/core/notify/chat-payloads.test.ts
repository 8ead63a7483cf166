// The chat receivers' bodies (core/notify/chat-payloads.ts), checked against the shapes Slack and
// Teams document: Slack's incoming webhook takes `text` and Block Kit `blocks` (a section's
// mrkdwn text at most 3,000 characters, a context at most 10 elements); Teams takes a `message`
// whose attachment is an Adaptive Card (application/vnd.microsoft.card.adaptive, version 1.4,
// TextBlock and FactSet elements). Names carrying markup or control characters are neutralized.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slackPayload, teamsPayload } from '../../../src/core/notify/chat-payloads.js';
import { escapeChatText } from '../../../src/core/notify/escape-chat-text.js';
import { fleetEvent } from '../../../src/core/notify/fleet-event.js';

const hostile =
  'web*bold*_it_ <!channel> <https://evil.example|click> [x](https://evil.example) `code` # h\nGitfleet: forged\u001b[31m\u202e';
const event = fleetEvent('ApplyFailed', {
  id: 'c:0',
  time: '2026-12-05T10:00:00.000Z',
  sourceCommit: 'a'.repeat(40),
  cluster: 'member1',
  object: `ConfigMap/shop/${hostile}`,
  message: `ConfigMap/shop/${hostile} @member1: 422 Invalid`,
});

interface SlackBlock {
  type: string;
  text?: { type: string; text: string };
  elements?: { type: string; text: string }[];
}

test('The Slack body has a fallback text and Block Kit blocks within their documented limits.', () => {
  const body = slackPayload(event) as { text: string; blocks: SlackBlock[] };
  assert.equal(typeof body.text, 'string');
  assert.ok(body.blocks.length >= 1 && body.blocks.length <= 50);
  const [section, context] = body.blocks;
  assert.equal(section!.type, 'section');
  assert.equal(section!.text!.type, 'mrkdwn');
  assert.ok(section!.text!.text.length <= 3000);
  assert.equal(context!.type, 'context');
  assert.ok(context!.elements!.length >= 1 && context!.elements!.length <= 10);
  for (const e of context!.elements!) assert.equal(e.type, 'mrkdwn');
});

test('In Slack, a name can neither mention the channel, nor link, nor restyle, nor forge a line.', () => {
  const body = slackPayload(event) as { text: string; blocks: SlackBlock[] };
  const texts = [body.text, body.blocks[0]!.text!.text, ...body.blocks[1]!.elements!.map((e) => e.text)];
  for (const text of texts) {
    assert.doesNotMatch(text, /<!channel>|<https?:/, 'no mention or link survives');
    assert.doesNotMatch(text, /\*bold\*|_it_|`code`/, 'no markup pairs up');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u202e]/, 'no control character');
  }
  assert.match(body.blocks[0]!.text!.text, /&lt;!channel&gt;/);
  assert.match(
    body.blocks[0]!.text!.text,
    /\\n\s?Gitfleet: forged\\u001b/,
    'the newline is written as an escape',
  );
});

test('The Teams body is a message with one Adaptive Card of TextBlocks and a FactSet.', () => {
  const body = teamsPayload(event) as {
    type: string;
    attachments: {
      contentType: string;
      content: {
        type: string;
        version: string;
        $schema: string;
        body: { type: string; text?: string; facts?: { title: string; value: string }[] }[];
      };
    }[];
  };
  assert.equal(body.type, 'message');
  assert.equal(body.attachments.length, 1);
  const card = body.attachments[0]!;
  assert.equal(card.contentType, 'application/vnd.microsoft.card.adaptive');
  assert.equal(card.content.type, 'AdaptiveCard');
  assert.equal(card.content.version, '1.4');
  assert.equal(card.content.$schema, 'http://adaptivecards.io/schemas/adaptive-card.json');
  assert.deepEqual(
    card.content.body.map((e) => e.type),
    ['TextBlock', 'TextBlock', 'FactSet'],
  );
  const texts = [card.content.body[1]!.text!, ...card.content.body[2]!.facts!.map((f) => f.value)];
  for (const text of texts) {
    assert.doesNotMatch(text, /\[x\]\(https/, 'no link survives');
    assert.doesNotMatch(text, /\*bold\*|`code`|^# /m, 'no markup pairs up');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u0000-\u001f\u202e]/, 'no control character');
  }
});

test('Escaping keeps the words readable and bounds the length.', () => {
  assert.equal(escapeChatText('shop/web-1', 'slack'), 'shop/web-1');
  assert.equal(escapeChatText('a*b', 'teams').replace(/\u200b/g, ''), 'a*b');
  assert.equal(escapeChatText('x'.repeat(5000), 'slack').length, 1001);
});
