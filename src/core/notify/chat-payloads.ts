// The bodies the chat receivers take (docs/notifications.md#payloads):
// - Slack incoming webhook (api.slack.com/messaging/webhooks): `text` (the notification's
//   fallback) and `blocks`: a header section in mrkdwn and a context block of fields;
// - Teams (Workflows / Incoming Webhook): a `message` whose one attachment is an Adaptive Card
//   (contentType application/vnd.microsoft.card.adaptive, schema 1.4): a TextBlock title, the
//   message in a wrapped TextBlock, and a FactSet of the event's fields.
// Every text from the event is escaped for its flavour (escape-chat-text.ts).
import { escapeChatText } from './escape-chat-text.js';
import type { FleetEvent } from './fleet-event.js';

const marks = { info: 'ℹ️', warning: '⚠️', error: '🛑' } as const;

/** Returns the Slack incoming-webhook body of an event. */
export function slackPayload(event: FleetEvent): Record<string, unknown> {
  const message = escapeChatText(event.message, 'slack');
  const title = `${marks[event.severity]} *${event.event}*${event.cluster ? ` on ${escapeChatText(event.cluster, 'slack', 100)}` : ''}`;
  return {
    text: `${event.event}: ${message}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `${title}\n${message}` } },
      {
        type: 'context',
        elements: facts(event).map(([k, v]) => ({
          type: 'mrkdwn',
          text: `${k}: ${escapeChatText(v, 'slack', 200)}`,
        })),
      },
    ],
  };
}

/** Returns the Teams body of an event: a message carrying one Adaptive Card. */
export function teamsPayload(event: FleetEvent): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              size: 'Medium',
              weight: 'Bolder',
              color:
                event.severity === 'error'
                  ? 'Attention'
                  : event.severity === 'warning'
                    ? 'Warning'
                    : 'Default',
              text: `${marks[event.severity]} ${event.event}`,
            },
            { type: 'TextBlock', wrap: true, text: escapeChatText(event.message, 'teams') },
            {
              type: 'FactSet',
              facts: facts(event).map(([title, value]) => ({
                title,
                value: escapeChatText(value, 'teams', 200),
              })),
            },
          ],
        },
      },
    ],
  };
}

function facts(event: FleetEvent): [string, string][] {
  return [
    ...(event.cluster ? [['cluster', event.cluster] as [string, string]] : []),
    ...(event.object ? [['object', event.object] as [string, string]] : []),
    ['source commit', event.sourceCommit.slice(0, 12)],
    ['severity', event.severity],
    ['id', event.id],
  ];
}
