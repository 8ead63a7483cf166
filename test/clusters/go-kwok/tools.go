//go:build tools

// Package tools pins kwok, which simulates nodes and pods for the test clusters. It is its own
// module because kwok follows a newer Kubernetes line than the one the clusters run.
package tools

import (
	_ "sigs.k8s.io/kwok/cmd/kwok"
)
