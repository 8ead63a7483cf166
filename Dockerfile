# gitfleet: multi-stage build. The first stage compiles TypeScript; the runtime stage holds only
# production dependencies and the compiled code, and runs as an unprivileged user.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/build/src ./build/src
COPY bin ./bin
USER node
ENTRYPOINT ["node", "/app/bin/gitfleet.js"]
CMD ["--help"]
