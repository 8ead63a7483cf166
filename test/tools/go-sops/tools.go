//go:build tools

// Package tools pins sops and age, which make the encrypted files the secrets tests decrypt.
// It is its own module so their dependencies do not meet the test clusters' Kubernetes line.
package tools

import (
	_ "filippo.io/age/cmd/age"
	_ "filippo.io/age/cmd/age-keygen"
	_ "github.com/getsops/sops/v3/cmd/sops"
)
