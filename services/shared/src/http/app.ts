import { randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { AppError, httpStatusOf } from '../errors/errors.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';

/** An express app with request ids, JSON logs, latency metrics and a JSON body parser. */
export function createHttpApp(opts: { logger: Logger; metrics: Metrics; jsonLimit?: string }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    pinoHttp({
      logger: opts.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w-]{1,100}$/.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // Successful fast reads are the bulk of traffic; log them at debug to keep logs useful.
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'debug',
    }),
  );
  app.use(((req, res, next) => {
    const end = opts.metrics.httpDuration.startTimer({ method: req.method });
    res.on('finish', () =>
      end({ route: req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched', status: res.statusCode }),
    );
    next();
  }) as RequestHandler);
  app.use(express.json({ limit: opts.jsonLimit ?? '1mb' }));
  return app;
}

/** The one place errors become HTTP answers: `{ message }` with the status of the error's kind. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof AppError) {
      res
        .status(httpStatusOf[err.kind])
        .json({ message: err.message, ...(err.details && err.kind === 'validation' ? { errors: err.details } : {}) });
      return;
    }
    const e = err as { type?: string; status?: number; code?: string; message?: string; field?: string };
    if (e.type === 'entity.parse.failed') return void res.status(400).json({ message: 'Malformed JSON body' });
    if (e.type === 'entity.too.large') return void res.status(413).json({ message: 'Request body too large' });
    if (e.code === 'LIMIT_FILE_SIZE') return void res.status(413).json({ message: 'Image too large' });
    if (typeof e.code === 'string' && e.code.startsWith('LIMIT_'))
      return void res.status(400).json({ message: e.message ?? 'Bad upload' });
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
      return void res.status(e.status).json({ message: e.message ?? 'Bad request' });
    ((req as { log?: Logger }).log ?? logger).error({ err }, 'unhandled error');
    res.status(500).json({ message: 'Internal server error' });
  };
}

/** 404 for unknown /api paths, as JSON. */
export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ message: `No route for ${req.method} ${req.originalUrl.split('?')[0]}` });
};
