import { Kafka, logLevel, type LogEntry, type logCreator } from 'kafkajs';
import { UnavailableError } from '../../errors/errors.ts';
import type { BusLogger } from '../logger.ts';
import { errorText } from '../retry-policy.ts';

/** kafkajs logs through the bus logger; its INFO lines (joins, commits) are routine, so they go to debug. */
function busLogCreator(logger: BusLogger): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = log;
      const line = { kafkajs: namespace, ...extra };
      if (level === logLevel.ERROR) logger.error(line, message);
      else if (level === logLevel.WARN) logger.warn(line, message);
      else logger.debug(line, message);
    };
}

/** A kafkajs client for the bus. */
export function createKafkaClient(options: { brokers: string[]; clientId?: string; logger: BusLogger }): Kafka {
  return new Kafka({
    clientId: options.clientId ?? 'shop',
    brokers: options.brokers,
    logLevel: logLevel.INFO,
    logCreator: busLogCreator(options.logger),
  });
}

/**
 * Makes sure topics exist before producing or subscribing. CreateTopics first (real Kafka, even with
 * auto-creation off); a broker without it (librdkafka's mock) is then asked for the topics' metadata, which
 * auto-creates them where the broker allows. Fails with a retriable UnavailableError if they still do not exist.
 */
export async function ensureTopics(kafka: Kafka, topics: string[], logger: BusLogger): Promise<void> {
  const admin = kafka.admin({ retry: { retries: 3 } });
  await admin.connect();
  try {
    try {
      await admin.createTopics({ topics: topics.map((topic) => ({ topic })), waitForLeaders: true, timeout: 5_000 });
    } catch (err) {
      logger.debug({ topics, err: errorText(err) }, 'CreateTopics not available; relying on topic auto-creation');
    }
    try {
      await admin.fetchTopicMetadata({ topics });
    } catch (err) {
      throw new UnavailableError(
        `Kafka topics ${topics.join(', ')} do not exist and could not be created: ${errorText(err)}`,
        { topics },
      );
    }
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
