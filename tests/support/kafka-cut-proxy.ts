import net from 'node:net';

/**
 * A Kafka outage the clients see for real, in front of a broker that keeps its log.
 *
 * librdkafka's mock cluster (tests/support/kafka-broker.ts) lives in the kcat process's memory: stopping
 * that process loses every topic and offset, and a new one listens on another port. So a test cannot stop and
 * start the broker itself; it stops this proxy instead. The proxy forwards Kafka connections to the broker
 * and, while cut, resets every open connection and every new one (connection refused, as from a broker
 * that is down), then forwards again when restored. The broker's log and consumer-group offsets stay.
 *
 * Kafka clients connect to the brokers a Metadata (or FindCoordinator) response advertises, not to the
 * bootstrap address, so the proxy rewrites the broker's port in those two responses to its own: every
 * connection of every client goes through it. kafkajs 2.x uses only their non-flexible versions (Metadata
 * v0-v6, FindCoordinator v0-v2), where a broker is `host (int16 length + bytes), port (int32)`; the port is
 * rewritten in place, so sizes never change.
 */
export interface KafkaCutProxy {
  /** host:port for KAFKA_BROKERS. */
  brokers: string;
  /** Resets every connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  readonly isCut: boolean;
  /** Connections accepted (and forwarded), and connections reset while cut. */
  readonly stats: { forwarded: number; refused: number };
  stop(): Promise<void>;
}

const METADATA = 3;
const FIND_COORDINATOR = 10;

/** Splits a Kafka byte stream into frames (int32 size + body); calls onFrame with each whole frame. */
function framer(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4) {
      const size = pending.readInt32BE(0);
      if (pending.length < 4 + size) break;
      onFrame(pending.subarray(0, 4 + size));
      pending = pending.subarray(4 + size);
    }
  };
}

/** Replaces `host` + brokerPort with `host` + proxyPort wherever the pair occurs in the frame's body. */
function rewritePort(frame: Buffer, host: string, brokerPort: number, proxyPort: number): Buffer {
  const needle = Buffer.alloc(2 + Buffer.byteLength(host) + 4);
  needle.writeInt16BE(Buffer.byteLength(host), 0);
  needle.write(host, 2);
  needle.writeInt32BE(brokerPort, needle.length - 4);
  let at = frame.indexOf(needle, 8);
  if (at < 0) return frame;
  const out = Buffer.from(frame);
  while (at >= 0) {
    out.writeInt32BE(proxyPort, at + needle.length - 4);
    at = out.indexOf(needle, at + needle.length);
  }
  return out;
}

export async function startKafkaCutProxy(broker: string): Promise<KafkaCutProxy> {
  const [host, portText] = broker.split(':') as [string, string];
  const brokerPort = Number(portText);
  const sockets = new Set<net.Socket>();
  const stats = { forwarded: 0, refused: 0 };
  let isCut = false;
  let proxyPort = 0;

  const server = net.createServer((client) => {
    if (isCut) {
      stats.refused++;
      client.resetAndDestroy();
      return;
    }
    stats.forwarded++;
    const upstream = net.connect(brokerPort, host);
    sockets.add(client);
    sockets.add(upstream);
    const close = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      if (!client.destroyed) client.resetAndDestroy();
      if (!upstream.destroyed) upstream.resetAndDestroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    /** correlation id -> api key of the requests in flight on this connection. */
    const apiKeys = new Map<number, number>();
    client.on(
      'data',
      framer((frame) => {
        // request header: api_key int16, api_version int16, correlation_id int32
        if (frame.length >= 12) apiKeys.set(frame.readInt32BE(8), frame.readInt16BE(4));
        upstream.write(frame);
      }),
    );
    upstream.on(
      'data',
      framer((frame) => {
        // response header v0: correlation_id int32
        const correlationId = frame.length >= 8 ? frame.readInt32BE(4) : -1;
        const apiKey = apiKeys.get(correlationId);
        apiKeys.delete(correlationId);
        client.write(
          apiKey === METADATA || apiKey === FIND_COORDINATOR ? rewritePort(frame, host, brokerPort, proxyPort) : frame,
        );
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  proxyPort = (server.address() as net.AddressInfo).port;

  return {
    brokers: `127.0.0.1:${proxyPort}`,
    cut() {
      isCut = true;
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
    },
    restore() {
      isCut = false;
    },
    get isCut() {
      return isCut;
    },
    stats,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
