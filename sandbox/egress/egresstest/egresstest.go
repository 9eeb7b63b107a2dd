// Copyright 2026 The lite-sandbox Authors.
// SPDX-License-Identifier: MIT

// Package egresstest holds what the network = "allow" tests share: local
// servers on 127.0.0.1 (plain HTTP, HTTPS with a test CA), a resolver
// that maps test names to them, and the test binary's entry points for
// the bridge.
package egresstest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/cgi"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-sandbox/lite-sandbox/internal/exit"
	"github.com/lite-sandbox/lite-sandbox/sandbox/confine"
	"github.com/lite-sandbox/lite-sandbox/sandbox/egress"
)

// Dispatch makes a test binary act as lite-sandbox's __confine (with the
// bridge) and __egress-bridge; call it first in TestMain. It returns
// only when os.Args is neither.
func Dispatch() {
	a := os.Args
	if len(a) >= 3 && a[1] == confine.Command && a[2] == "--" {
		exe, _ := os.Executable()
		env, err := egress.StartBridge(exe, os.Environ())
		if err != nil {
			fmt.Fprintln(os.Stderr, "confine:", err)
			os.Exit(exit.Sandbox)
		}
		code, err := confine.Exec(a[3:], env)
		fmt.Fprintln(os.Stderr, "confine:", err)
		os.Exit(code)
	}
	if len(a) == 3 && a[1] == egress.BridgeCommand {
		fmt.Fprintln(os.Stderr, "bridge:", egress.ServeBridge(a[2]))
		os.Exit(exit.Failed)
	}
}

// Names of the test resolver.
const (
	Allowed  = "allowed.test"  // the local servers; allowed
	Refused  = "refused.test"  // the local servers; not allowed
	Metadata = "metadata.test" // 169.254.169.254; allowed by name
	Loopback = "loopback.test" // 127.0.0.1, a port not in allow_addresses; allowed by name
)

// Resolver maps the test names; every other name fails, so no test ever
// asks a real DNS server.
type Resolver map[string]netip.Addr

// LookupNetIP implements egress.Resolver.
func (r Resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[strings.ToLower(host)]; ok {
		return []netip.Addr{a}, nil
	}
	return nil, &net.DNSError{Err: "no such host (test resolver)", Name: host, IsNotFound: true}
}

// NewResolver returns the test names.
func NewResolver() Resolver {
	lo := netip.MustParseAddr("127.0.0.1")
	return Resolver{Allowed: lo, Refused: lo, Loopback: lo, Metadata: netip.MustParseAddr("169.254.169.254")}
}

// Servers are the local servers of one test.
type Servers struct {
	HTTP, HTTPS int    // ports on 127.0.0.1
	Other       int    // another local server, not in allow_addresses
	CAFile      string // PEM of the HTTPS server's CA
	GitRepo     string // path of a bare repository served over git's smart HTTP; "" without git
}

// Body is what every test server answers.
const Body = "hello from the test server\n"

// Start starts the servers (closed at the end of the test) and writes
// the CA to dir/ca.pem. Both serve Body, and git's smart HTTP below
// /git/ when git is installed (see [Servers.GitRepo]).
func Start(t testing.TB, dir string) *Servers {
	t.Helper()
	s := &Servers{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, Body) })
	if out, err := exec.Command("git", "--exec-path").Output(); err == nil {
		root := t.TempDir()
		repo := filepath.Join(root, "repo.git")
		src := filepath.Join(root, "src")
		env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "HOME="+root)
		for _, args := range [][]string{
			{"init", "-q", "-b", "main", src},
			{"-C", src, "commit", "-q", "--allow-empty", "-m", "first"},
			{"clone", "-q", "--bare", src, repo},
		} {
			c := exec.Command("git", args...)
			c.Env = env
			if b, err := c.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, b)
			}
		}
		mux.Handle("/git/", http.StripPrefix("/git", &cgi.Handler{
			Path: filepath.Join(strings.TrimSpace(string(out)), "git-http-backend"),
			Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
		}))
		s.GitRepo = "/git/repo.git"
	}
	h := mux
	s.HTTP = serve(t, h, nil)
	s.Other = serve(t, h, nil)
	cert, caPEM := testCert(t)
	s.CAFile = filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(s.CAFile, caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	s.HTTPS = serve(t, h, &tls.Config{Certificates: []tls.Certificate{cert}})
	return s
}

func serve(t testing.TB, h http.Handler, tc *tls.Config) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if tc != nil {
		l = tls.NewListener(l, tc)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

// testCert makes a self-signed certificate for Allowed, which is its own
// CA.
func testCert(t testing.TB) (tls.Certificate, []byte) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: Allowed},
		DNSNames: []string{Allowed}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// Rules allows Allowed, Metadata and Loopback by name, and the HTTP and
// HTTPS servers' loopback ports by address.
func (s *Servers) Rules(t testing.TB) *egress.Rules {
	r, err := egress.NewRules(s.AllowDomains(), nil, s.AllowAddresses())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// AllowDomains is the tests' sandbox.allow_domains.
func (s *Servers) AllowDomains() []string { return []string{Allowed, Metadata, Loopback} }

// AllowAddresses is the tests' sandbox.allow_addresses.
func (s *Servers) AllowAddresses() []string {
	return []string{fmt.Sprintf("127.0.0.1:%d", s.HTTP), fmt.Sprintf("127.0.0.1:%d", s.HTTPS)}
}

// Script is the shell script the sandbox tests run inside: one line of
// "name=exit status" per probe, on stdout.
func (s *Servers) Script() string {
	return fmt.Sprintf(`
probe() { n=$1; shift; "$@" >/dev/null 2>&1; echo "$n=$?"; }
probe http curl -fsS -m 10 http://%[1]s:%[2]d/
probe https curl -fsS -m 10 --cacert %[4]s https://%[1]s:%[3]d/
probe socks curl -fsS -m 10 -x socks5h://127.0.0.1:1080 http://%[1]s:%[2]d/
probe socks_tls curl -fsS -m 10 --cacert %[4]s -x socks5h://127.0.0.1:1080 https://%[1]s:%[3]d/
probe refused curl -fsS -m 10 http://%[5]s:%[2]d/
probe rawip curl -fsS -m 10 --noproxy '' -x http://127.0.0.1:3128 http://127.0.0.1:%[2]d/
probe metadata curl -fsS -m 10 http://%[6]s/
probe metadata_ip curl -fsS -m 10 --noproxy '' -x http://127.0.0.1:3128 http://169.254.169.254/
probe loopback curl -fsS -m 10 http://%[7]s:%[8]d/
probe direct curl -fsS -m 5 --noproxy '*' http://127.0.0.1:%[2]d/
probe devtcp bash -c 'exec 3<>/dev/tcp/127.0.0.1/%[2]d'
probe dns getent hosts %[5]s
probe dns_allowed getent hosts %[1]s
`, Allowed, s.HTTP, s.HTTPS, s.CAFile, Refused, Metadata, Loopback, s.Other)
}

// Want is what Script must print: the allowed name works over HTTP,
// CONNECT and SOCKS5; nothing else does.
var Want = map[string]bool{"http": true, "https": true, "socks": true, "socks_tls": true,
	"refused": false, "rawip": false, "metadata": false, "metadata_ip": false, "loopback": false,
	"direct": false, "devtcp": false, "dns": false, "dns_allowed": false}

// Check compares Script's output with Want.
func Check(t testing.TB, out string) {
	t.Helper()
	got := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if n, st, ok := strings.Cut(l, "="); ok {
			got[n] = st == "0"
		}
	}
	for n, want := range Want {
		g, ok := got[n]
		if !ok {
			t.Errorf("probe %s did not run; output:\n%s", n, out)
			continue
		}
		if g != want {
			t.Errorf("probe %s: reachable=%v, want %v", n, g, want)
		}
	}
}
