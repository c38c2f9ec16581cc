import client from 'prom-client';

/** Prometheus metrics of one process (served at /metrics). */
export class Metrics {
  readonly registry = new client.Registry();
  readonly httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly eventsAppended = new client.Counter({
    name: 'events_appended_total',
    help: 'Events appended to the event store',
    labelNames: ['source', 'type'],
    registers: [this.registry],
  });
  readonly eventsProcessed = new client.Counter({
    name: 'projection_events_processed_total',
    help: 'Events processed by a consumer',
    labelNames: ['consumer'],
    registers: [this.registry],
  });
  readonly projectionLag = new client.Gauge({
    name: 'projection_lag_events',
    help: 'Events in the source log not yet processed by a consumer',
    labelNames: ['consumer', 'source'],
    registers: [this.registry],
  });
  readonly outboxBacklog = new client.Gauge({
    name: 'outbox_backlog_events',
    help: 'Outbox rows not yet published to Kafka',
    labelNames: ['source'],
    registers: [this.registry],
  });
  readonly parkedEvents = new client.Gauge({
    name: 'parked_events',
    help: 'Events parked after failing all retries',
    labelNames: ['consumer'],
    registers: [this.registry],
  });

  /**
   * Requests refused for a business reason (409: sold out, a coupon refused), one count each instead of a
   * warn log line each (a sale refuses thousands a second). `by`: who answered, `app` (the express route),
   * `raw` (before express, from the stock writer's memory) or `gateway` (distributed, from the catalog's
   * sold-out flag).
   */
  readonly refusals = new client.Counter({
    name: 'refusals_total',
    help: 'Requests refused for a business reason (409: sold out, coupon), by who answered',
    labelNames: ['route', 'by'],
    registers: [this.registry],
  });

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    client.collectDefaultMetrics({ register: this.registry });
  }
}
