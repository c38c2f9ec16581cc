import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * gzip/brotli for answers a client accepts compressed (the web app's HTML/JS/CSS, JSON lists), except
 * Server-Sent Events: a compressor holds bytes back until it has a block, so a push would sit in its
 * buffer instead of reaching the browser.
 */
export function compressResponses(): RequestHandler {
  return compression({
    filter: (req, res) => {
      const type = res.getHeader('Content-Type');
      if (typeof type === 'string' && type.toLowerCase().startsWith('text/event-stream')) return false;
      return compression.filter(req, res);
    },
  });
}
