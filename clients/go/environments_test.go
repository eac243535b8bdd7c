package apnsemulator

// Both environments, as Apple runs them (issue 72): a sandbox and a production endpoint, and a
// token valid at the one its app's build registered with. Apple, "Handling notification
// responses from APNs": 400 BadDeviceToken, "verify … that the token matches the environment".

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

func TestEachBuildAtItsEndpoint(t *testing.T) {
	apns := Start(t, Options{})
	debug := apns.RegisterDevice(topic)
	testflight := apns.RegisterDeviceIn(topic, Production)
	if apns.ProductionURL() != fmt.Sprintf("https://localhost:%d", apns.Ports["productionHttp2"]) || apns.ProductionURL() == apns.SandboxURL() {
		t.Fatalf("production %s, sandbox %s", apns.ProductionURL(), apns.SandboxURL())
	}
	for _, sent := range []struct{ token, environment string }{{debug, Development}, {testflight, Production}} {
		answer, err := apns.Push(sent.token, `{"aps":{"alert":"hi"}}`, PushOptions{Topic: topic, Environment: sent.environment})
		if err != nil || answer.Status != 200 {
			t.Fatalf("%s build at its endpoint: %+v %v", sent.environment, answer, err)
		}
	}
	atProduction := apns.Notifications(Filter{Environment: Production})
	if len(atProduction) != 1 || atProduction[0]["token"] != testflight {
		t.Fatalf("the journal at production: %v", atProduction)
	}
	if check := apns.CheckToken(testflight); !check.Known || check.Environment != Production || check.Endpoint != "api.push.apple.com" {
		t.Fatalf("token check: %+v", check)
	}
}

func TestAProviderConfiguredForProductionIsCaught(t *testing.T) {
	apns := Start(t, Options{})
	debug := apns.RegisterDevice(topic)
	// The provider under test, net/http over HTTP/2, its base URL from its production configuration.
	ca, err := os.ReadFile(apns.CAPath)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}}
	defer client.CloseIdleConnections()
	request, _ := http.NewRequest("POST", apns.ProductionURL()+"/3/device/"+debug, strings.NewReader(`{"aps":{"alert":"hi"}}`))
	request.Header.Set("apns-topic", topic)
	answer, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer answer.Body.Close()
	body, _ := io.ReadAll(answer.Body)
	var refusal struct{ Reason string }
	_ = json.Unmarshal(body, &refusal)
	if answer.StatusCode != 400 || refusal.Reason != "BadDeviceToken" || !strings.Contains(answer.Header.Get("apns-emulator-detail"), "development build") {
		t.Fatalf("a debug build's token at production: %d %s %q", answer.StatusCode, body, answer.Header.Get("apns-emulator-detail"))
	}
	refused := apns.Notifications(Filter{Status: "rejected", Environment: Production})
	if len(refused) != 1 || refused[0]["token"] != debug || refused[0]["reason"] != "BadDeviceToken" {
		t.Fatalf("the journal's refusal at production: %v", refused)
	}
}
