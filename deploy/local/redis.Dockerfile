# Redis from Debian's package, standing in for the redis image on machines that cannot pull it.
FROM localhost/debian:bookworm
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server >/dev/null && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
WORKDIR /data
USER redis
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no"]
