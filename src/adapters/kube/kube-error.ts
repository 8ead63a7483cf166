// One error class for the kube adapter: the API server's refusal (its Status, as data the
// agent classifies) or no answer at all, subject first in the message.
import type { ApiRefusal } from '../../core/model/api-refusal.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** An API request that failed: `refusal.code` is the HTTP status, 0 when the server did not answer. */
// `terminal`: retrying cannot help (400, 422), the request itself is wrong.
export class KubeApiError extends GitfleetError<'KubeApiFailed' | 'KubeNoAnswer'> {
  declare readonly subject: string;
  constructor(
    subject: string,
    readonly refusal: ApiRefusal,
  ) {
    super(
      `${subject}: ${refusal.code === 0 ? 'no answer' : `${refusal.code} ${refusal.reason ?? ''}`.trim()}: ${refusal.message}`,
      {
        code: refusal.code === 0 ? 'KubeNoAnswer' : 'KubeApiFailed',
        subject,
        terminal: refusal.code === 400 || refusal.code === 422,
      },
    );
  }
}

/** Returns the refusal an answer's body describes (a Kubernetes Status, or plain text). */
export function refusalOf(status: number, body: string): ApiRefusal {
  try {
    const parsed = JSON.parse(body) as {
      kind?: string;
      reason?: string;
      message?: string;
      details?: { causes?: { type?: string; message?: string; field?: string }[] };
    };
    if (parsed.kind === 'Status') {
      return {
        code: status,
        ...(parsed.reason ? { reason: parsed.reason } : {}),
        message: parsed.message ?? body,
        ...(parsed.details?.causes ? { causes: parsed.details.causes } : {}),
      };
    }
  } catch {
    // Not JSON: the text is the message.
  }
  return { code: status, message: body.trim().slice(0, 500) || `HTTP ${status}` };
}
