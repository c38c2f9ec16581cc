import { promisify } from 'node:util';
import zlib from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * gzip/brotli for answers a client accepts compressed (the web app's HTML/JS/CSS, JSON lists), except
 * Server-Sent Events: a compressor holds bytes back until it has a block, so a push would sit in its
 * buffer instead of reaching the browser. A request without Accept-Encoding skips the compressor altogether
 * (it would answer uncompressed anyway, after negotiating per answer); its answers then carry no
 * `Vary: Accept-Encoding`, which is safe: an uncompressed answer suits every client.
 */
export function compressResponses(): RequestHandler {
  const compress = compression({
    filter: (req, res) => {
      const type = res.getHeader('Content-Type');
      if (typeof type === 'string' && type.toLowerCase().startsWith('text/event-stream')) return false;
      return compression.filter(req, res);
    },
  });
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}

type Encoding = 'br' | 'gzip';

/** Below this a compressed copy is not worth it (the compression middleware's default threshold). */
const THRESHOLD_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESS: Record<Encoding, (b: Buffer) => Promise<Buffer>> = {
  // quality 4, as the compression middleware: the copy is remade after every change to what it holds
  br: (b) => brotli(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (b) => gzip(b),
};

/** brotli if the request accepts it, else gzip if it does, else null (send the bytes as they are). */
const accepted = (req: Request): Encoding | null =>
  req.acceptsEncodings('br') === 'br' ? 'br' : req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;

/**
 * A hot answer's bytes and their compressed forms, each made once, when a client first asks for it, and
 * kept as long as the bytes are: a read served from memory to many clients is compressed once per change
 * instead of once per request.
 */
export class EncodedBody {
  private readonly forms = new Map<Encoding, Promise<Buffer>>();

  constructor(readonly bytes: Buffer) {}

  encoded(encoding: Encoding): Promise<Buffer> {
    let form = this.forms.get(encoding);
    if (!form) {
      form = COMPRESS[encoding](this.bytes);
      this.forms.set(encoding, form);
      form.catch(() => this.forms.delete(encoding)); // a failed compression is tried again next time
    }
    return form;
  }

  /**
   * Sends the body (headers such as Content-Type already set), compressed when the request accepts it:
   * brotli, else gzip, as the compression middleware prefers them (which then leaves the answer alone: already
   * encoded).
   */
  async send(req: Request, res: Response): Promise<void> {
    res.setHeader('Vary', 'Accept-Encoding');
    const encoding = req.headers['accept-encoding'] && this.bytes.length >= THRESHOLD_BYTES ? accepted(req) : null;
    if (!encoding) return void res.end(this.bytes);
    const body = await this.encoded(encoding);
    res.setHeader('Content-Encoding', encoding);
    res.end(body);
  }
}
