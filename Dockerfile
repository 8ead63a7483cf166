# gitfleet's image holds what the published package holds: the first stage runs `npm pack`
# (its prepack script compiles src with tsconfig.build.json), the runtime stage unpacks that
# tarball and installs the production dependencies of package-lock.json. The build stage's
# COPY lines are what the build reads plus package.json `files`; test/packaging/pack.test.ts
# checks the tarball runs (`gitfleet --help`, the example) from an empty directory, and
# test/packaging/image.test.ts builds this file and runs the image.
#
# NODE_IMAGE is the base of both stages: the official image by default; scripts/build-image.sh
# passes one it made locally (Debian bookworm minbase, the machine's Node 20, a `node` user with
# uid 1000) where no registry can be reached. Whatever it is, it must hold node and npm on PATH
# and the user `node`.
ARG NODE_IMAGE=node:20-bookworm-slim
# helm and kustomize, which render the fleet's HelmSources and KustomizeSources (docs/sources.md),
# at the versions pinned in tools/go-render/{helm,kustomize}/go.mod: built from their Go modules
# by tools/go-render/build.sh in the stage below, or, with RENDER_TOOLS_IMAGE set, taken from an
# image holding them in /out (scripts/build-image.sh imports the ones that script built on the
# machine, as localhost/gitfleet-render-tools:<versions>, where no Go image can be pulled).
ARG GO_IMAGE=golang:1.26-bookworm
ARG RENDER_TOOLS_IMAGE=render-tools-from-source
FROM ${GO_IMAGE} AS render-tools-from-source
WORKDIR /src
COPY tools/go-render ./tools/go-render
RUN GITFLEET_CACHE=/cache tools/go-render/build.sh >/tmp/built && mkdir /out && \
    while read -r name dir; do cp "$dir/$name" /out/; done </tmp/built
FROM ${RENDER_TOOLS_IMAGE} AS render-tools

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# package.json `files`: bin, build/src (compiled above), examples/fleet-repo, scripts/example.js.
COPY bin ./bin
COPY examples/fleet-repo ./examples/fleet-repo
COPY scripts/example.js ./scripts/example.js
RUN npm pack --pack-destination /tmp && mv /tmp/gitfleet-*.tgz /tmp/gitfleet.tgz

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# The production dependencies first, from package.json and the lock alone: a change of the
# sources rebuilds the layers below, not this install (the tarball's package.json is the same file).
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /tmp/gitfleet.tgz /tmp/gitfleet.tgz
RUN tar -xzf /tmp/gitfleet.tgz --strip-components=1 -C /app && rm /tmp/gitfleet.tgz
COPY --from=render-tools /out/helm /out/kustomize /usr/local/bin/
# uid 1000, as the manifests' runAsUser (deploy/*/deployment.yaml).
USER node
ENTRYPOINT ["node", "/app/bin/gitfleet.js"]
CMD ["--help"]
