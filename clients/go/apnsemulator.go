// Package apnsemulator starts apns-emulator for a Go test: one `apns-emulator serve --ephemeral`
// on free ports per Start, stopped by t.Cleanup, pushed to over HTTP/2 and TLS as a provider
// does (net/http), read and steered through its admin API. The standard library only.
//
//	func TestShipped(t *testing.T) {
//		apns := apnsemulator.Start(t, apnsemulator.Options{})
//		token := apns.RegisterDevice("com.example.shop")
//		apns.Device(token).SetApp(map[string]interface{}{"authorization": map[string]interface{}{"status": "authorized", "alert": true}})
//		answer, err := apns.Push(token, `{"aps":{"alert":{"title":"Shipped"}}}`, apnsemulator.PushOptions{Topic: "com.example.shop"})
//		...
//	}
package apnsemulator

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Options for Start. The binary comes from Binary, APNS_EMULATOR_BIN or PATH; the container image
// from Image or APNS_EMULATOR_IMAGE.
type Options struct {
	Binary string
	Image  string
	// Seed is a seed file's path (docs/seed.schema.json); SeedDocument a seed to write to one.
	Seed         string
	SeedDocument interface{}
	// Serve holds serve's flags: {"auth": "strict"}; "true" alone for a flag without a value.
	Serve        map[string]string
	StartTimeout time.Duration
}

// Emulator is a running apns-emulator.
type Emulator struct {
	Host      string
	Ports     map[string]int
	CAPath    string
	Directory string
	PID       int
	// AdminToken is the token the admin API asks for ("" when none); Admin sends it.
	AdminToken string

	tb       testing.TB
	launcher *launcher
	provider *http.Client
	admin    *http.Client
}

// Start starts an emulator for the test; t.Cleanup stops it, and a failed test gets its log.
func Start(tb testing.TB, options Options) *Emulator {
	tb.Helper()
	emulator, err := Launch(options)
	if err != nil {
		tb.Fatalf("apns-emulator: %v", err)
	}
	emulator.tb = tb
	tb.Cleanup(func() {
		emulator.Stop()
		if tb.Failed() {
			tb.Logf("apns-emulator log (%s):\n%s", emulator.launcher.logPath, emulator.Log())
		}
		emulator.Remove()
	})
	return emulator
}

// Launch starts an emulator outside a test; Stop ends it and Remove deletes its directory.
func Launch(options Options) (*Emulator, error) {
	directory, err := os.MkdirTemp("", "apns-emulator-go-")
	if err != nil {
		return nil, err
	}
	if options.StartTimeout == 0 {
		options.StartTimeout = 30 * time.Second
	}
	if options.SeedDocument != nil {
		data, err := json.Marshal(options.SeedDocument)
		if err != nil {
			return nil, err
		}
		options.Seed = filepath.Join(directory, "seed.json")
		if err := os.WriteFile(options.Seed, data, 0o644); err != nil {
			return nil, err
		}
	}
	image := options.Image
	if image == "" && options.Binary == "" {
		image = os.Getenv("APNS_EMULATOR_IMAGE")
	}
	var l *launcher
	if image != "" {
		if options.StartTimeout < time.Minute {
			options.StartTimeout = time.Minute
		}
		l, err = startContainer(image, directory, options)
	} else {
		var binary string
		if binary, err = findBinary(options.Binary); err == nil {
			l, err = startBinary(binary, directory, options)
		}
	}
	if err != nil {
		_ = os.RemoveAll(directory)
		return nil, err
	}
	ca, err := os.ReadFile(l.caPath)
	if err != nil {
		l.stop(10 * time.Second)
		return nil, err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca)
	// A custom TLS configuration turns net/http's HTTP/2 off unless asked for: APNs is HTTP/2 only.
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}
	emulator := &Emulator{Host: l.host, Ports: l.ports, CAPath: l.caPath, Directory: directory, AdminToken: l.adminToken, launcher: l,
		provider: &http.Client{Transport: transport, Timeout: 30 * time.Second}, admin: &http.Client{Timeout: 330 * time.Second}}
	if l.cmd != nil && l.cmd.Process != nil {
		emulator.PID = l.cmd.Process.Pid
	}
	return emulator, nil
}

// URL is the provider API's base URL, the sandbox's (the server certificate names localhost).
func (e *Emulator) URL() string { return fmt.Sprintf("https://localhost:%d", e.Ports["http2"]) }

// SandboxURL is the sandbox endpoint (Apple: api.sandbox.push.apple.com), where a provider's
// development setting points: apns2's client.Host beside Development().
func (e *Emulator) SandboxURL() string { return e.URL() }

// ProductionURL is the production endpoint (Apple: api.push.apple.com), where a provider's
// production setting points: apns2's client.Host beside Production().
func (e *Emulator) ProductionURL() string {
	port, ok := e.Ports["productionHttp2"]
	if !ok || port == 0 {
		port = e.Ports["http2"]
	}
	return fmt.Sprintf("https://localhost:%d", port)
}

// URLFor is the base URL of Development (or "sandbox") or Production; another name panics,
// naming the two.
func (e *Emulator) URLFor(environment string) string {
	if environmentOf(environment) == Production {
		return e.ProductionURL()
	}
	return e.SandboxURL()
}

// The environments: an app build's, and the endpoint a push is sent to.
const (
	Development = "development"
	Production  = "production"
)

func environmentOf(name string) string {
	switch strings.ToLower(name) {
	case "", Development, "sandbox":
		return Development
	case Production:
		return Production
	}
	panic(fmt.Sprintf("apns-emulator: environment is development (the sandbox) or production, not %q", name))
}

// Log is everything the emulator printed so far.
func (e *Emulator) Log() string { return e.launcher.log() }

// Stop stops the emulator.
func (e *Emulator) Stop() {
	e.provider.CloseIdleConnections()
	e.launcher.stop(10 * time.Second)
}

// Remove deletes the emulator's directory (certificates, keys, log) once it has stopped.
func (e *Emulator) Remove() {
	_ = os.RemoveAll(e.Directory)
}

// PushOptions are a push's headers, and its endpoint: Environment is Development (the sandbox,
// also when empty) or Production; a token of the other environment's build is 400 BadDeviceToken.
type PushOptions struct {
	Topic, PushType, CollapseID, APNsID, Authorization string
	Priority, Expiration                               int
	Headers                                            map[string]string
	Environment                                        string
}

// PushResult is APNs' answer to a push.
type PushResult struct {
	Status                   int
	Reason, APNsID, UniqueID string
	Detail                   string
	Warnings                 []string
	Protocol                 string
}

// Push sends a push over HTTP/2 and TLS, as a provider does.
func (e *Emulator) Push(token, payload string, options PushOptions) (PushResult, error) {
	request, err := http.NewRequest("POST", e.URLFor(options.Environment)+"/3/device/"+token, strings.NewReader(payload))
	if err != nil {
		return PushResult{}, err
	}
	for name, value := range map[string]string{"apns-topic": options.Topic, "apns-push-type": options.PushType,
		"apns-collapse-id": options.CollapseID, "apns-id": options.APNsID, "authorization": options.Authorization} {
		if value != "" {
			request.Header.Set(name, value)
		}
	}
	if options.Priority != 0 {
		request.Header.Set("apns-priority", fmt.Sprint(options.Priority))
	}
	if options.Expiration != 0 {
		request.Header.Set("apns-expiration", fmt.Sprint(options.Expiration))
	}
	for name, value := range options.Headers {
		request.Header.Set(name, value)
	}
	answer, reason, err := send(e.provider, request)
	if err != nil {
		return PushResult{}, err
	}
	return PushResult{Status: answer.StatusCode, Reason: reason, APNsID: answer.Header.Get("apns-id"),
		UniqueID: answer.Header.Get("apns-unique-id"), Detail: answer.Header.Get("apns-emulator-detail"),
		Warnings: answer.Header.Values("apns-emulator-warning"), Protocol: answer.Proto}, nil
}

// send sends request and reads the answer: its `{"reason"}` when it has one (APNs' refusals and
// the Web Push service's have the same shape).
func send(client *http.Client, request *http.Request) (*http.Response, string, error) {
	answer, err := client.Do(request)
	if err != nil {
		return nil, "", err
	}
	defer answer.Body.Close()
	body, _ := io.ReadAll(answer.Body)
	var refusal struct{ Reason string }
	_ = json.Unmarshal(body, &refusal)
	return answer, refusal.Reason, nil
}

// Admin sends one admin API request and decodes the answer into result (when not nil); an
// answer other than expect is an error naming what was refused.
func (e *Emulator) Admin(method, path string, body interface{}, expect int, result interface{}) error {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(data)
	}
	request, err := http.NewRequest(method, fmt.Sprintf("http://%s:%d%s", e.Host, e.Ports["admin"], path), reader)
	if err != nil {
		return err
	}
	if e.AdminToken != "" {
		request.Header.Set("Authorization", "Bearer "+e.AdminToken)
	}
	answer, err := e.admin.Do(request)
	if err != nil {
		return err
	}
	defer answer.Body.Close()
	data, _ := io.ReadAll(answer.Body)
	if answer.StatusCode != expect {
		return fmt.Errorf("%s %s: %d %s", method, path, answer.StatusCode, data)
	}
	if result != nil && len(data) > 0 {
		return json.Unmarshal(data, result)
	}
	return nil
}

// must fails the test (or panics outside one) on an admin API error.
func (e *Emulator) must(err error) {
	if err == nil {
		return
	}
	if e.tb != nil {
		e.tb.Helper()
		e.tb.Fatalf("apns-emulator: %v", err)
	}
	panic(err)
}

// RegisterDevice gives a token issued for topic, as a device registering gets: a development
// build's (a debug build from Xcode).
func (e *Emulator) RegisterDevice(topic string) string { return e.RegisterDeviceIn(topic, Development) }

// RegisterDeviceIn gives a token issued for topic to a build of environment: Development, or
// Production (TestFlight, the App Store), whose endpoint alone takes it.
func (e *Emulator) RegisterDeviceIn(topic, environment string) string {
	var answer struct{ Token string }
	body := map[string]string{"topic": topic, "environment": environmentOf(environment)}
	e.must(e.Admin("POST", "/api/v1/devices", body, 201, &answer))
	return answer.Token
}

// TokenCheck is the Push Notifications Console's token validation of one token.
type TokenCheck struct {
	Known, Registered                                                    bool
	Environment, Endpoint, Topic, DeviceID, RegisteredAt, UnregisteredAt string
	Queued                                                               int
	Verdict                                                              string
}

// CheckToken says whether the emulator knows token, its environment and endpoint, app, device,
// and whether it is still registered.
func (e *Emulator) CheckToken(token string) TokenCheck {
	var check TokenCheck
	e.must(e.Admin("GET", "/api/v1/tokens/"+token, nil, 200, &check))
	return check
}

// Filter picks notifications from the journal; Environment is the endpoint it was sent to.
type Filter struct{ Token, Topic, Status, PushType, Environment string }

func (f Filter) query() url.Values {
	values := url.Values{}
	for name, value := range map[string]string{"token": f.Token, "topic": f.Topic, "status": f.Status, "pushType": f.PushType,
		"environment": f.Environment} {
		if value != "" {
			values.Set(name, value)
		}
	}
	return values
}

// Notifications is the journal, newest first.
func (e *Emulator) Notifications(filter Filter) []map[string]interface{} {
	var page struct{ Items []map[string]interface{} }
	e.must(e.Admin("GET", "/api/v1/notifications?"+filter.query().Encode(), nil, 200, &page))
	return page.Items
}

// WaitFor is the first notification matching filter within timeout; the error lists the near
// misses (what arrived instead, and why each did not match).
func (e *Emulator) WaitFor(filter Filter, timeout time.Duration) (map[string]interface{}, error) {
	values := filter.query()
	values.Set("timeout", fmt.Sprintf("%dms", timeout.Milliseconds()))
	var found map[string]interface{}
	err := e.Admin("GET", "/api/v1/notifications/wait?"+values.Encode(), nil, 200, &found)
	if err == nil {
		return found, nil
	}
	var missed struct {
		Error      string
		NearMisses []struct {
			ID, Status, Topic, Token string
			Failed                   []string
		}
	}
	if e.Admin("GET", "/api/v1/notifications/wait?"+values.Encode(), nil, 408, &missed) != nil {
		return nil, err
	}
	lines := []string{fmt.Sprintf("no notification with %s within %s: %s", filter.query().Encode(), timeout, missed.Error)}
	if len(missed.NearMisses) > 0 {
		lines = append(lines, "near misses:")
	}
	for _, miss := range missed.NearMisses {
		token := miss.Token
		if len(token) > 12 {
			token = token[:12]
		}
		lines = append(lines, fmt.Sprintf("  %s: %s to %s / %s: %s", miss.ID, miss.Status, miss.Topic, token, strings.Join(miss.Failed, "; ")))
	}
	return nil, fmt.Errorf("%s", strings.Join(lines, "\n"))
}

// Export is the world as a seed document (Options.SeedDocument of it starts the same world).
func (e *Emulator) Export() map[string]interface{} {
	var world map[string]interface{}
	e.must(e.Admin("POST", "/api/v1/export", nil, 200, &world))
	return world
}

// Reset empties the queues, the journal and the feedback list, removes fault rules, forgets the
// providers the report card saw and returns the clock to real time; with devices, forgets every
// token too.
func (e *Emulator) Reset(devices bool) {
	e.must(e.Admin("POST", "/api/v1/reset", map[string]bool{"devices": devices}, 200, nil))
}
