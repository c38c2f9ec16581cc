import { spawn } from 'node:child_process';

/**
 * Starts librdkafka's mock Kafka cluster (real wire protocol) through Debian's kcat. It has no
 * CreateTopics and no idempotent producer; topics are auto-created on first produce.
 */
export async function startMockKafka(): Promise<{ brokers: string; stop: () => Promise<void> }> {
  const child = spawn('kcat', ['-X', 'test.mock.num.brokers=1', '-d', 'mock', '-C', '-t', '__mock_keepalive', '-b', 'mock:1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const brokers = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('kcat mock broker did not print bootstrap.servers in 10 s')), 10_000);
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
