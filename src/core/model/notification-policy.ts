// A NotificationPolicy (gitfleet.io/v1alpha1, cluster-scoped): where the hub sends the events it
// derives from its own commits (docs/notifications.md). The policy names receivers and routes;
// the secrets a receiver needs (a Slack or Teams URL, a token, an HMAC key) are never in it: it
// names a file of the hub's --notifications-secrets-dir or a Kubernetes Secret's key.
import type { LabelSelector } from './selectors.js';
import type { SourceLocation } from './source-location.js';

/** The kinds of receiver: a generic JSON webhook, chat incoming webhooks, forge commit statuses. */
export type ReceiverType = 'webhook' | 'slack' | 'teams' | 'github' | 'gitlab' | 'gitea';

/** The receiver types, in the order the docs list them. */
export const receiverTypes: readonly ReceiverType[] = [
  'webhook',
  'slack',
  'teams',
  'github',
  'gitlab',
  'gitea',
];

/** How bad an event is; a route takes events of its severity and worse. */
export type EventSeverity = 'info' | 'warning' | 'error';

/** The severities, least severe first. */
export const eventSeverities: readonly EventSeverity[] = ['info', 'warning', 'error'];

/** Where a receiver's URL (or token) comes from: exactly one of these. */
export type SecretSource =
  /** Written in the policy: only for a webhook whose URL is no secret. */
  | { type: 'inline'; value: string }
  /** A file of --notifications-secrets-dir, by its name there. */
  | { type: 'file'; file: string }
  /** A key of a Kubernetes Secret in the hub's namespace (a hub running in a cluster). */
  | { type: 'secret'; name: string; key: string };

/** The receivers that POST a body to a URL of their own. */
export type HttpReceiverType = 'webhook' | 'slack' | 'teams';

/** The receivers that set commit statuses on a forge repository. */
export type ForgeReceiverType = 'github' | 'gitlab' | 'gitea';

/** Returns whether a receiver type is a forge's commit statuses. */
export function isForgeReceiverType(type: ReceiverType): type is ForgeReceiverType {
  return type === 'github' || type === 'gitlab' || type === 'gitea';
}

/** One receiver of a policy. */
export type NotificationReceiverSpec = HttpReceiverSpec | ForgeReceiverSpec;

/** A webhook, Slack or Teams receiver. */
export interface HttpReceiverSpec {
  name: string;
  type: HttpReceiverType;
  url: SecretSource;
  /** A file of --notifications-secrets-dir holding the webhook's HMAC key. */
  hmacKeyFile?: string;
}

/** A forge receiver: each event routed to it sets a commit status on the event's source commit. */
export interface ForgeReceiverSpec {
  name: string;
  type: ForgeReceiverType;
  /** `owner/name`, or GitLab's `group/…/project`. */
  repository: string;
  /** The forge's API base, no trailing slash (defaults: https://api.github.com, https://gitlab.com/api/v4). */
  apiUrl: string;
  /** Where the API token is read (`tokenFile` or `secretRef`). */
  token: SecretSource;
  /** The first part of every context the receiver sets (default `gitfleet`). */
  context: string;
}

/** One route: which events go to which receivers. */
export interface NotificationRoute {
  /** Event types (docs/notifications.md#events); `*` is every type. */
  events: string[];
  /** The least severe events the route takes (default info: every event). */
  severity: EventSeverity;
  /** Clusters whose labels match; absent: any cluster, and events of no cluster. */
  clusters?: LabelSelector;
  /** Namespaces of the object an event is about; empty: any (and events about no object). */
  namespaces: string[];
  receivers: string[];
}

/** A loaded NotificationPolicy. */
export interface NotificationPolicy {
  name: string;
  receivers: NotificationReceiverSpec[];
  routes: NotificationRoute[];
  source: SourceLocation;
}
