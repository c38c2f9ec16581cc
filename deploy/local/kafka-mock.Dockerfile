# A Kafka-protocol broker from Debian's packages for machines that cannot pull apache/kafka: librdkafka's mock
# cluster (kcat -M), as the tests use. It listens on 127.0.0.1 at a port of its choosing and advertises that
# address, so its clients share this container's network namespace (network_mode: service:kafka) and socat
# gives it the fixed port 9092.
FROM localhost/debian:bookworm
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends kcat socat >/dev/null && rm -rf /var/lib/apt/lists/*
COPY kafka-mock.sh /usr/local/bin/kafka-mock.sh
CMD ["/usr/local/bin/kafka-mock.sh"]
