import type { Logger } from '@shop/shared/observability/logger';

/** How many order numbers checkout fetches at a time: one statement (or call) per this many payments. */
export const ORDER_NUMBER_BLOCK = 20;

/**
 * The order numbers this process records in PaymentVerified, fetched a block at a time from the order
 * service's one sequence (OrderPlacementPort.allocateOrderNumbers: in-process, or over HTTP) and kept in
 * memory. A number taken and then not recorded (the payment was verified already, another report appended
 * first) is given back for the next payment; numbers still held when the process stops are gaps, as a
 * rolled-back sequence value always was. When no number can be had (the order service unreachable), `take`
 * answers null: the payment is recorded without one and the placement numbers it.
 */
export class OrderNumberPool {
  private readonly free: string[] = [];
  private refill: Promise<void> | null = null;

  constructor(
    private readonly allocate: (count: number) => Promise<string[]>,
    private readonly logger?: Pick<Logger, 'warn'>,
    private readonly blockSize = ORDER_NUMBER_BLOCK,
  ) {}

  /** The lowest free number, fetching a block when none is left; null when the order service cannot give one. */
  async take(): Promise<string | null> {
    while (this.free.length === 0) {
      // One fetch at a time: the payments waiting meanwhile share its block.
      this.refill ??= this.fetchBlock().finally(() => (this.refill = null));
      try {
        await this.refill;
      } catch (err) {
        this.logger?.warn({ err: String(err) }, 'no order numbers: payment recorded without one');
        return null;
      }
    }
    return this.free.shift()!;
  }

  /** A number taken and certainly not recorded (nothing was appended): the next payment takes it. */
  giveBack(orderNumber: string): void {
    this.free.push(orderNumber);
    this.free.sort(byNumber);
  }

  private async fetchBlock(): Promise<void> {
    const numbers = await this.allocate(this.blockSize);
    if (numbers.length === 0) throw new Error('the order service gave no order numbers');
    this.free.push(...numbers);
    this.free.sort(byNumber);
  }
}

/** ORD-100002 before ORD-100010: by the digits, not the text. */
const byNumber = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
