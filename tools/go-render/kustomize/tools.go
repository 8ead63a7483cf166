//go:build tools

// Package tools pins kustomize, which builds the fleet's KustomizeSources. It is its own module
// so that kustomize builds with exactly the dependencies of its release.
package tools

import (
	_ "sigs.k8s.io/kustomize/kustomize/v5"
)
