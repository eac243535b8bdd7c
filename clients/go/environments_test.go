package apnsemulator

// Both environments, as Apple runs them (issue 72): a sandbox and a production endpoint, and a
// token valid at the one its app's build registered with. Apple, "Handling notification
// responses from APNs": 400 BadDeviceToken, "verify … that the token matches the environment".

import (
	"fmt"
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
	status, reason, answer := providerPushTo(t, apns, apns.ProductionURL(), debug, `{"aps":{"alert":"hi"}}`, nil)
	if status != 400 || reason != "BadDeviceToken" || !strings.Contains(answer.Header.Get("apns-emulator-detail"), "development build") {
		t.Fatalf("a debug build's token at production: %d %s %q", status, reason, answer.Header.Get("apns-emulator-detail"))
	}
	refused := apns.Notifications(Filter{Status: "rejected", Environment: Production})
	if len(refused) != 1 || refused[0]["token"] != debug || refused[0]["reason"] != "BadDeviceToken" {
		t.Fatalf("the journal's refusal at production: %v", refused)
	}
}
