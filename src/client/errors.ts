/** One field the server refused, as in the error envelope's `details`. */
export interface StorefrontErrorDetail {
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  message: string;
}

/**
 * A non-2xx answer of the API: `{success: false, error: {code, message, details}}` with its status and the
 * `X-Request-Id` to quote when asking what happened. `retryAfter` (seconds) is set when the server sent one.
 */
export class StorefrontError extends Error {
  override readonly name = 'StorefrontError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: StorefrontErrorDetail[] = [],
    readonly requestId: string | null = null,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** From a response and its parsed body (a body that is not the envelope keeps the status's text). */
  static from(response: Response, body: unknown): StorefrontError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    const code = typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`;
    const message = typeof error?.message === 'string' ? error.message : response.statusText || `HTTP ${response.status}`;
    const details = Array.isArray(error?.details) ? (error.details as StorefrontErrorDetail[]) : [];
    const retryAfter = Number(response.headers.get('retry-after'));
    return new StorefrontError(
      response.status,
      code,
      message,
      details,
      response.headers.get('x-request-id'),
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
}
