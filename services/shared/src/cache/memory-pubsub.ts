import { createLogger, type Logger } from '../observability/logger.ts';
import type { PubSub } from './types.ts';

interface Subscription {
  handler: (message: string) => void;
  active: boolean;
}

export interface MemoryPubSubOptions {
  logger?: Logger;
}

/**
 * In-process pub/sub for the embedded mode. Delivery is asynchronous (as over Redis: publish() never runs
 * a handler on the publisher's stack), in publish order, to the subscribers present when it was published.
 */
export class MemoryPubSub implements PubSub {
  private readonly channels = new Map<string, Set<Subscription>>();
  private readonly logger: Logger;

  constructor(options: MemoryPubSubOptions = {}) {
    this.logger = options.logger ?? createLogger('pubsub');
  }

  async publish(channel: string, message: string): Promise<void> {
    const subscriptions = this.channels.get(channel);
    if (!subscriptions?.size) return;
    const targets = [...subscriptions];
    // setImmediate callbacks run in the order they were queued, which keeps messages in publish order.
    setImmediate(() => {
      for (const s of targets) if (s.active) deliver(s.handler, message, channel, this.logger);
    });
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    const subscription: Subscription = { handler, active: true };
    let subscriptions = this.channels.get(channel);
    if (!subscriptions) this.channels.set(channel, (subscriptions = new Set()));
    subscriptions.add(subscription);
    return async () => {
      subscription.active = false;
      subscriptions.delete(subscription);
      if (subscriptions.size === 0 && this.channels.get(channel) === subscriptions) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    for (const subscriptions of this.channels.values()) for (const s of subscriptions) s.active = false;
    this.channels.clear();
  }
}

/** Runs one handler; a throwing subscriber is logged and must not stop delivery to the others. */
export function deliver(handler: (message: string) => void, message: string, channel: string, logger: Logger): void {
  try {
    handler(message);
  } catch (err) {
    logger.error({ err, channel }, 'Pub/sub subscriber threw');
  }
}
