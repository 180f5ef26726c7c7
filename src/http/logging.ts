import type { FastifyServerOptions } from 'fastify';

const DATA_URI = /data:[\w/+.-]+;base64,[A-Za-z0-9+/=]{16,}/g;
const BEARER = /(Bearer\s+)\S+/gi;
const API_KEY = /sfk_[0-9A-Za-z]{8,}/g;

export function scrub(text: string): string {
  return text.replace(DATA_URI, 'data:[redacted]').replace(BEARER, '$1[redacted]').replace(API_KEY, 'sfk_[redacted]');
}

/** JSON lines with the request id; credentials, passwords and data URIs never reach them. */
export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.accessToken', '*.key', '*.jwtSecret'],
      censor: '[redacted]',
    },
    serializers: {
      err: (error: Error & { code?: string }) => ({
        type: error.name,
        code: error.code,
        message: scrub(error.message ?? ''),
        stack: scrub(error.stack ?? ''),
      }),
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: scrub(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
