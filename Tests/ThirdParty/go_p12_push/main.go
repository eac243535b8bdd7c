// Loads a provider .p12 with golang.org/x/crypto/pkcs12 (what sideshow/apns2's
// certificate.FromP12File uses) and pushes one notification with it over HTTP/2, as apns2 does.
// Built in GOPATH mode against Debian's golang-golang-x-crypto-dev; run by AuthCommandLineTests.
//
//	go_p12_push <file.p12> <password> <ca.pem> <https://localhost:port/3/device/token>
//
// Prints "<status> <protocol>" and exits 0, or names what failed and exits 1.
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"

	"golang.org/x/crypto/pkcs12"
)

func main() {
	if len(os.Args) != 5 {
		fail("usage: go_p12_push <file.p12> <password> <ca.pem> <url>")
	}
	p12, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err.Error())
	}
	key, leaf, err := pkcs12.Decode(p12, os.Args[2])
	if err != nil {
		fail("pkcs12: " + err.Error())
	}
	caPEM, err := os.ReadFile(os.Args[3])
	if err != nil {
		fail(err.Error())
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	transport := &http.Transport{
		TLSClientConfig: &tls.Config{
			RootCAs:      roots,
			Certificates: []tls.Certificate{{Certificate: [][]byte{leaf.Raw}, PrivateKey: key, Leaf: leaf}},
		},
		ForceAttemptHTTP2: true,
	}
	client := &http.Client{Transport: transport}
	response, err := client.Post(os.Args[4], "application/json", bytes.NewBufferString(`{"aps":{"alert":"from Go"}}`))
	if err != nil {
		fail(err.Error())
	}
	body, _ := io.ReadAll(response.Body)
	response.Body.Close()
	fmt.Printf("%d %s %s\n", response.StatusCode, response.Proto, body)
}

func fail(message string) {
	fmt.Fprintln(os.Stderr, message)
	os.Exit(1)
}
