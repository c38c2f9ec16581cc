import { ConflictError, UnavailableError, ValidationError } from '@shop/shared/errors/errors';
import type { InventoryPort, ReserveLine, ReserveResult } from '@shop/shared/contracts/inventory';

/** InventoryPort over HTTP to the catalog service (distributed mode). */
export class InventoryHttpClient implements InventoryPort {
  constructor(
    private readonly baseUrl: string,
    private readonly serviceToken: string,
  ) {}

  reserve(reservationId: string, lines: ReserveLine[]): Promise<ReserveResult> {
    return this.post<ReserveResult>('reserve', { reservationId, lines });
  }

  async release(reservationId: string, reason?: string): Promise<void> {
    await this.post('release', { reservationId, reason });
  }

  async commit(reservationId: string): Promise<void> {
    await this.post('commit', { reservationId });
  }

  async returnSale(reservationId: string, reason?: string): Promise<void> {
    await this.post('return', { reservationId, reason });
  }

  private async post<T>(action: string, body: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/internal/inventory/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.serviceToken}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new UnavailableError('Inventory is unreachable, please try again', { cause: String(err) });
    }
    const text = await res.text();
    const parsed = (() => {
      try {
        return JSON.parse(text) as { message?: string };
      } catch {
        return { message: text };
      }
    })();
    if (res.ok) return parsed as T;
    const message = parsed.message ?? `Inventory answered ${res.status}`;
    if (res.status === 409) throw new ConflictError(message);
    if (res.status === 400) throw new ValidationError(message);
    throw new UnavailableError(message);
  }
}
