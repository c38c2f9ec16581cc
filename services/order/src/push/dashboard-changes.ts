import type { RecordedEvent } from '@shop/shared/eventstore/types';
import type { PubSub } from '@shop/shared/cache/types';

/**
 * Pub/sub channel on which the order service's catalog and accounts read models say that a dashboard figure
 * changed (a product's stock moved between in stock, low and out, a user registered, a testimonial was
 * submitted, moderated or deleted). The push hubs then send admins fresh figures.
 */
export const DASHBOARD_FIGURES_CHANNEL = 'orders.dashboard-figures.changed';

/**
 * Remembers which handled events changed a figure and, once their transaction committed, announces it: once
 * per committed batch, and not at all for the many stock events that change no count (a sale's holds on a
 * well-stocked product).
 */
export class DashboardFigureAnnouncer {
  private readonly changed = new Set<string>();

  constructor(private readonly pubsub: PubSub) {}

  /** Marks a handled event (by id) as one that changed a figure. */
  mark(event: RecordedEvent): void {
    this.changed.add(event.eventId);
  }

  /** For the consumer's afterCommit. A failed publish is logged by the bus; the next change pushes again. */
  async afterCommit(events: RecordedEvent[]): Promise<void> {
    let any = false;
    for (const e of events) if (this.changed.delete(e.eventId)) any = true;
    // Marks of transactions that rolled back are made again on retry; never let strays pile up.
    if (this.changed.size > 10_000) this.changed.clear();
    if (any) await this.pubsub.publish(DASHBOARD_FIGURES_CHANNEL, '{}');
  }
}
