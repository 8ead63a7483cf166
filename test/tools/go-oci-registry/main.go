// Command oci-registry serves an in-memory OCI distribution registry on 127.0.0.1 for the
// template source tests (docs/sources.md): helm pushes charts to it and the hub pulls them.
// It listens on the address given by -addr (port 0: any free port) and prints the address it
// listens on as its first line, so a test can start it and read where it is.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	listener, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("oci-registry: listen %s: %v", *addr, err)
	}
	fmt.Println(listener.Addr().String())
	server := &http.Server{
		Handler:           registry.New(registry.Logger(log.New(os.Stderr, "", log.LstdFlags))),
		ReadHeaderTimeout: 10 * time.Second,
	}
	log.Fatal(server.Serve(listener))
}
