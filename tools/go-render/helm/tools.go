//go:build tools

// Package tools pins helm, which renders the fleet's HelmSources. It is its own module so that
// helm builds with exactly the dependencies of its release.
package tools

import (
	_ "helm.sh/helm/v4/cmd/helm"
)
