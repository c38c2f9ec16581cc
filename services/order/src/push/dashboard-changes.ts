import type { PubSub } from '@shop/shared/cache/types';

/**
 * Pub/sub channel on which the order service's catalog and accounts read models say that a dashboard figure
 * changed (a product's stock moved between in stock, low and out, a user registered, a testimonial was
 * submitted, moderated or deleted). The push hubs then send admins fresh figures.
 */
export const DASHBOARD_FIGURES_CHANNEL = 'orders.dashboard-figures.changed';

/** What a dashboard projection's handle() returns for an event that changed a figure (its after-commit effect). */
export const FIGURE_CHANGED = 'figure-changed';
export type FigureChanged = typeof FIGURE_CHANGED;

/**
 * A dashboard projection's afterCommit: once per committed batch, announces that figures changed if any
 * handled event of it said so (the many stock events that change no count, a sale's holds on a well-stocked
 * product, return nothing). A failed publish is logged by the bus; the next change pushes again.
 */
export async function announceFigures(pubsub: PubSub, changed: readonly FigureChanged[]): Promise<void> {
  if (changed.length > 0) await pubsub.publish(DASHBOARD_FIGURES_CHANNEL, '{}');
}
