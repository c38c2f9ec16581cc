# One image for every service; the command picks which one runs (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY services/shared/package.json services/shared/
COPY services/catalog/package.json services/catalog/
COPY services/accounts/package.json services/accounts/
COPY services/checkout/package.json services/checkout/
COPY services/order/package.json services/order/
COPY services/gateway/package.json services/gateway/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:web
# Production: start-up refuses a weak JWT_SECRET, and missing Razorpay keys unless RAZORPAY_SANDBOX=true
# (docker-compose.yml's demo stack sets it; the image does not, so a real deployment cannot take free payments).
ENV NODE_ENV=production
USER node
CMD ["npx", "tsx", "services/gateway/src/main.ts"]
