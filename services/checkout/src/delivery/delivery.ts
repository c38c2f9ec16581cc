import type pg from 'pg';
import { decideAndAppend } from '@shop/shared/eventstore/command';
import type { PostgresEventStore } from '@shop/shared/eventstore/postgres-event-store';
import { calculateCharges, type DeliveryCharges } from './settings/charges.ts';
import { decideDeliverySettings, evolveDeliverySettings, initialDeliverySettingsState } from './settings/decider.ts';
import { DELIVERY_SETTINGS_STREAM, type DeliverySettings } from './settings/events.ts';
import { readDeliverySettings } from './read-models/delivery-settings/delivery-settings-queries.ts';
import { DELIVERY_SETTINGS_KEY } from './read-models/delivery-settings/delivery-settings-projection.ts';
import { ProjectedViewCache } from '@shop/shared/cache/projected-view';
import type { PubSub } from '@shop/shared/cache/types';

/** Application service: delivery settings commands, and the charges an order total incurs. */
export class Delivery {
  /** The settings in memory for pricing orders (no query per checkout); dropped by the projection's commits. */
  readonly settingsView: ProjectedViewCache<DeliverySettings>;

  constructor(
    private readonly store: PostgresEventStore,
    private readonly db: pg.Pool,
    private readonly clock: () => Date,
    pubsub: PubSub,
  ) {
    this.settingsView = new ProjectedViewCache({
      channel: 'checkout.delivery-settings.changed',
      pubsub,
      load: () => readDeliverySettings(db),
    });
  }

  /** Changes the given settings (others keep their value). Returns the stream version (0: never saved). */
  async changeSettings(changes: Partial<DeliverySettings>, actor?: string): Promise<number> {
    return decideAndAppend(
      this.store,
      DELIVERY_SETTINGS_STREAM,
      { initialState: initialDeliverySettingsState, evolve: evolveDeliverySettings, decide: decideDeliverySettings },
      () => ({ type: 'ChangeDeliverySettings', data: { changes, now: this.clock() } }),
      actor,
    );
  }

  /** The settings in force (read model; the defaults until an admin saves some). */
  currentSettings(): Promise<DeliverySettings> {
    return readDeliverySettings(this.db);
  }

  /** Shipping and delivery charges for an order total (after discount), by the settings in force. */
  async quote(orderTotalPaise: number): Promise<DeliveryCharges> {
    return calculateCharges(await this.settingsView.get(DELIVERY_SETTINGS_KEY), orderTotalPaise);
  }
}
