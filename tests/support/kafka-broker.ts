import { spawn } from 'node:child_process';

/**
 * Starts librdkafka's mock Kafka cluster (real wire protocol) through Debian's kcat (librdkafka 2.0.2).
 * What the bus adapters and their tests rely on, as measured against it:
 * - No CreateTopics (kafkajs fails fast: the controller id is not a broker) and no idempotent producer.
 *   A Metadata request auto-creates a missing topic with 4 partitions, so a consumer's subscribe, an
 *   admin fetchTopicMetadata or a first produce all create it (see ensureTopics in bus/kafka).
 * - A Fetch always waits its full maxWaitTimeInMs, even when data arrives: tests use a small one.
 * - A group's first join takes 3 s; a group that a member left rebalances only after that member's
 *   sessionTimeout - 1 s: tests use sessionTimeout 4000 and wait for GROUP_JOIN, never a fixed sleep.
 * - No DescribeGroups, so kafkajs admin.resetOffsets/setOffsets fail; redelivery is tested by republishing.
 */
export async function startMockKafka(): Promise<{ brokers: string; stop: () => Promise<void> }> {
  const child = spawn(
    'kcat',
    ['-X', 'test.mock.num.brokers=1', '-d', 'mock', '-C', '-t', '__mock_keepalive', '-b', 'mock:1'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const brokers = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('kcat mock broker did not print bootstrap.servers in 10 s')),
      10_000,
    );
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`Cannot start the Kafka mock (apt-get install kcat): ${e.message}`));
    });
    let buf = '';
    child.stderr.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /bootstrap\.servers=(\S+)/.exec(buf);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
      if (buf.length > 100_000) buf = buf.slice(-1000);
    });
  });
  return {
    brokers,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}
