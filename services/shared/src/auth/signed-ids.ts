import { createHmac, timingSafeEqual } from 'node:crypto';

/** base64url of an HMAC-SHA256. */
const MAC = /^[A-Za-z0-9_-]{43}$/;

/**
 * Ids handed to a browser as `<id>.<mac>` so that only the shop can make one: the MAC is an HMAC-SHA256 of the id
 * with a key derived from JWT_SECRET and a purpose (so every process of one shop agrees, and a value signed for one
 * purpose is worthless for another). Checked in constant time; a malformed value reads as no id at all.
 */
export class SignedIds {
  private readonly key: Buffer;

  /** `id` says which ids may be signed: it must not match a dot (the separator). */
  constructor(
    jwtSecret: string,
    purpose: string,
    private readonly id: RegExp,
  ) {
    this.key = createHmac('sha256', jwtSecret).update(purpose).digest();
  }

  /** The signed value of `id`: `<id>.<mac>`. */
  sign(id: string): string {
    if (!this.id.test(id) || id.includes('.')) throw new Error('SignedIds: this id cannot be signed');
    return `${id}.${this.mac(id)}`;
  }

  /** The id a signed value carries, or null when it is malformed or its MAC does not match. */
  read(value: string): string | null {
    const dot = value.lastIndexOf('.');
    if (dot <= 0) return null;
    const id = value.slice(0, dot);
    const mac = value.slice(dot + 1);
    if (!this.id.test(id) || id.includes('.') || !MAC.test(mac)) return null;
    return timingSafeEqual(Buffer.from(mac), Buffer.from(this.mac(id))) ? id : null;
  }

  private mac(id: string): string {
    return createHmac('sha256', this.key).update(id).digest('base64url');
  }
}
