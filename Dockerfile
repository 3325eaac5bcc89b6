# One image for every role: `api`, `worker` and `migrate` pick the entry point.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 METRICS_HOST=0.0.0.0 METRICS_PORT=9464
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The worker loads dist/workflow-bundle.js (npm run build; else it bundles dist/workflows at start).
COPY --from=build /app/workflows ./workflows
USER node
EXPOSE 3000 9464
CMD ["node", "dist/src/api.js"]
