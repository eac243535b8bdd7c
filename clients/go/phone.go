package apnsemulator

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// Device is the phone behind a token.
type Device struct {
	e     *Emulator
	Token string
}

// Device gives the phone behind token.
func (e *Emulator) Device(token string) Device { return Device{e: e, Token: token} }

// App is the app's settings and state.
func (d Device) App() map[string]interface{} {
	var app map[string]interface{}
	d.e.must(d.e.Admin("GET", "/api/v1/devices/"+d.Token+"/app", nil, 200, &app))
	return app
}

// SetApp changes the app as the user would in Settings: authorization, appState, categories...
func (d Device) SetApp(fields map[string]interface{}) {
	d.e.must(d.e.Admin("PUT", "/api/v1/devices/"+d.Token+"/app", fields, 200, nil))
}

// Delivered is Notification Center, oldest first.
func (d Device) Delivered() []map[string]interface{} {
	var page struct{ Items []map[string]interface{} }
	d.e.must(d.e.Admin("GET", "/api/v1/devices/"+d.Token+"/delivered", nil, 200, &page))
	return page.Items
}

// Power is the device's power state; SetPower changes it.
func (d Device) Power() map[string]interface{} {
	var power map[string]interface{}
	d.e.must(d.e.Admin("GET", "/api/v1/devices/"+d.Token+"/power", nil, 200, &power))
	return power
}

// Focus is the device's Focus: {"deviceId", "active", "allowedApps", "timeSensitive", "apps"}.
func (d Device) Focus() map[string]interface{} {
	var focus map[string]interface{}
	d.e.must(d.e.Admin("GET", "/api/v1/devices/"+url.PathEscape(d.deviceID())+"/focus", nil, 200, &focus))
	return focus
}

// SetFocus turns a Focus on for the whole device (active "" ends it): what it does not allow is
// delivered quietly, held by "focus"; time-sensitive breaks through while timeSensitive is on.
func (d Device) SetFocus(active string, allowedApps []string, timeSensitive bool) map[string]interface{} {
	body := map[string]interface{}{"active": nil, "allowedApps": append([]string{}, allowedApps...), "timeSensitive": timeSensitive}
	if active != "" {
		body["active"] = active
	}
	var focus map[string]interface{}
	d.e.must(d.e.Admin("PUT", "/api/v1/devices/"+url.PathEscape(d.deviceID())+"/focus", body, 200, &focus))
	return focus
}

// SetServiceExtension gives the app a notification service extension, for alerts with
// mutable-content: a command run with the content as JSON on standard input (it prints the
// content to show), or a URL the content is posted to; timeout on the emulator's clock ("" for
// 30s). With neither, the app has none. Each presentation says what it did in "serviceExtension".
func (d Device) SetServiceExtension(command, url, timeout string) map[string]interface{} {
	var extension map[string]interface{}
	if command != "" {
		extension = map[string]interface{}{"command": command}
	} else if url != "" {
		extension = map[string]interface{}{"url": url}
	}
	if extension != nil && timeout != "" {
		extension["timeout"] = timeout
	}
	var app map[string]interface{}
	d.e.must(d.e.Admin("PUT", "/api/v1/devices/"+d.Token+"/app", map[string]interface{}{"serviceExtension": extension}, 200, &app))
	return app
}

// Presentation is how the phone presented uniqueID, once it has (a service extension may take a
// while); an error saying where it is when timeout passes first.
func (d Device) Presentation(uniqueID string, timeout time.Duration) (map[string]interface{}, error) {
	deadline := time.Now().Add(timeout)
	for {
		var item map[string]interface{}
		if err := d.e.Admin("GET", "/api/v1/notifications/"+url.PathEscape(uniqueID), nil, 200, &item); err != nil {
			return nil, err
		}
		if presentation, ok := item["presentation"].(map[string]interface{}); ok {
			return presentation, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s was not presented within %v: %v", uniqueID, timeout, item["phoneOutcome"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (d Device) deviceID() string {
	id, _ := d.App()["deviceId"].(string)
	return id
}

// Faults adds and lists fault rules.
type Faults struct{ e *Emulator }

// Faults gives the fault rules.
func (e *Emulator) Faults() Faults { return Faults{e: e} }

// Add adds a rule: Add(map[string]interface{}{"type": "respond", "reason": "TooManyRequests"}, map[string]interface{}{"topic": t}, 1).
func (f Faults) Add(action interface{}, match map[string]interface{}, times int) map[string]interface{} {
	body := map[string]interface{}{"action": action, "match": match}
	if times > 0 {
		body["times"] = times
	}
	var rule map[string]interface{}
	f.e.must(f.e.Admin("POST", "/api/v1/faults", body, 201, &rule))
	return rule
}

// List is every rule in force.
func (f Faults) List() []map[string]interface{} {
	var rules []map[string]interface{}
	f.e.must(f.e.Admin("GET", "/api/v1/faults", nil, 200, &rules))
	return rules
}

// Clock moves the emulator's clock.
type Clock struct{ e *Emulator }

// Clock gives the emulator's clock.
func (e *Emulator) Clock() Clock { return Clock{e: e} }

// Advance moves it forward ("90m", "2h"); what expires is expired at once. Returns the offset in ms.
func (c Clock) Advance(by string) int64 {
	var answer struct{ OffsetMs int64 }
	c.e.must(c.e.Admin("POST", "/api/v1/clock", map[string]string{"advance": by}, 200, &answer))
	return answer.OffsetMs
}

// ProviderKey is a signing key the emulator trusts.
type ProviderKey struct{ KeyID, TeamID, P8Path string }

// Keys makes provider-token keys.
type Keys struct{ e *Emulator }

// Keys gives the key maker.
func (e *Emulator) Keys() Keys { return Keys{e: e} }

// Create makes a signing key the running emulator trusts at once (--auth strict).
func (k Keys) Create(teamID string, topics ...string) ProviderKey {
	out := filepath.Join(k.e.Directory, "creds")
	if k.e.launcher.cli != "" {
		out = "/data/creds"
	}
	args := []string{"keys", "create", "--team-id", teamID, "--keys", k.e.launcher.keysDirectory, "--out", out}
	if len(topics) > 0 {
		args = append(args, "--topics", strings.Join(topics, ","))
	}
	output, err := k.e.launcher.command(args...)
	if err != nil {
		k.e.must(fmt.Errorf("keys create: %v: %s", err, output))
	}
	for _, line := range strings.Split(string(output), "\n") {
		if strings.HasPrefix(line, "private key: ") {
			written := strings.Fields(line)[2]
			name := filepath.Base(written)
			local, err := k.e.launcher.fetch(written, filepath.Join(k.e.Directory, name))
			k.e.must(err)
			return ProviderKey{KeyID: strings.TrimSuffix(strings.TrimPrefix(name, "AuthKey_"), ".p8"), TeamID: teamID, P8Path: local}
		}
	}
	k.e.must(fmt.Errorf("keys create did not say where the key is: %s", output))
	return ProviderKey{}
}

// SetPower changes the device's power state: {"online": false}, {"lowPowerMode": true}, {"locked": true}.
func (d Device) SetPower(state map[string]bool) map[string]interface{} {
	var power map[string]interface{}
	d.e.must(d.e.Admin("PUT", "/api/v1/devices/"+d.Token+"/power", state, 200, &power))
	return power
}
