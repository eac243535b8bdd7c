package apnsemulator

// The fixture as a Go provider's test uses it: the provider's own net/http client over HTTP/2,
// assertions on what the phone shows and what APNs refused (Apple's "Handling notification
// responses from APNs" for the statuses and reasons, "Establishing a token-based connection to
// APNs" for ES256 provider tokens).

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

const topic = "com.example.goshop"

// providerPush is a push as a Go provider writes it with net/http over HTTP/2, to the sandbox.
func providerPush(t *testing.T, e *Emulator, token, payload string, headers map[string]string) (int, string, *http.Response) {
	t.Helper()
	return providerPushTo(t, e, e.SandboxURL(), token, payload, headers)
}

// providerPushTo is the same push to the base URL a provider's configuration names.
func providerPushTo(t *testing.T, e *Emulator, base, token, payload string, headers map[string]string) (int, string, *http.Response) {
	t.Helper()
	ca, err := os.ReadFile(e.CAPath)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}}
	defer client.CloseIdleConnections()
	request, _ := http.NewRequest("POST", base+"/3/device/"+token, strings.NewReader(payload))
	request.Header.Set("apns-topic", topic)
	request.Header.Set("apns-push-type", "alert")
	for name, value := range headers {
		request.Header.Set(name, value)
	}
	answer, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer answer.Body.Close()
	body, _ := io.ReadAll(answer.Body)
	var refusal struct{ Reason string }
	_ = json.Unmarshal(body, &refusal)
	return answer.StatusCode, refusal.Reason, answer
}

func TestPushOverHTTP2ReachesThePhone(t *testing.T) {
	apns := Start(t, Options{})
	token := apns.RegisterDevice(topic)
	apns.Device(token).SetApp(map[string]interface{}{"authorization": map[string]interface{}{"status": "authorized", "alert": true, "sound": true, "badge": true}})
	status, _, answer := providerPush(t, apns, token, `{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}`, nil)
	if status != 200 || answer.ProtoMajor != 2 {
		t.Fatalf("push: %d over %s, want 200 over HTTP/2", status, answer.Proto)
	}
	seen, err := apns.WaitFor(Filter{Token: token, Topic: topic}, 5*time.Second)
	if err != nil || seen["apnsId"] != answer.Header.Get("apns-id") {
		t.Fatalf("waitFor: %v %v", seen, err)
	}
	shown := apns.Device(token).Delivered()
	presentation, _ := shown[0]["presentation"].(map[string]interface{})
	if len(shown) != 1 || presentation["title"] != "Shipped" || presentation["body"] != "Order 42" || presentation["shown"] != true {
		t.Fatalf("Notification Center: %v", shown)
	}
	// 400 BadDeviceToken; 413 PayloadTooLarge above 4096 bytes.
	if status, reason, _ := providerPush(t, apns, "abc", `{"aps":{"alert":"x"}}`, nil); status != 400 || reason != "BadDeviceToken" {
		t.Fatalf("bad token: %d %s", status, reason)
	}
	large := `{"aps":{"alert":"` + strings.Repeat("x", 5000) + `"}}`
	if status, reason, _ := providerPush(t, apns, token, large, nil); status != 413 || reason != "PayloadTooLarge" {
		t.Fatalf("large: %d %s", status, reason)
	}
	if refused := apns.Notifications(Filter{Token: token, Status: "rejected"}); len(refused) != 1 || refused[0]["reason"] != "PayloadTooLarge" {
		t.Fatalf("journal: %v", refused)
	}
}

// Apple Support, "Use a Focus on your iPhone": an app a Focus does not allow is delivered quietly.
func TestFocusHoldsWhatItDoesNotAllow(t *testing.T) {
	apns := Start(t, Options{})
	token := apns.RegisterDevice(topic)
	device := apns.Device(token)
	device.SetApp(map[string]interface{}{"authorization": map[string]interface{}{"status": "authorized", "alert": true, "sound": true}})
	if focus := device.SetFocus("Work", nil, true); focus["active"] != "Work" || device.Focus()["apps"] != float64(1) {
		t.Fatalf("focus: %v", focus)
	}
	if status, _, _ := providerPush(t, apns, token, `{"aps":{"alert":"Sale","sound":"default"}}`, nil); status != 200 {
		t.Fatalf("push: %d", status)
	}
	held, _ := device.Delivered()[0]["presentation"].(map[string]interface{})
	if held["heldBy"] != "focus" || held["deliveredQuietly"] != true {
		t.Fatalf("held: %v", held)
	}
	if focus := device.SetFocus("", nil, true); focus["active"] != nil {
		t.Fatalf("ended: %v", focus)
	}
	providerPush(t, apns, token, `{"aps":{"alert":"Hi","sound":"default"}}`, nil)
	shown, _ := device.Delivered()[1]["presentation"].(map[string]interface{})
	if shown["heldBy"] != nil || shown["sound"] != "default" {
		t.Fatalf("after: %v", shown)
	}
}

// Apple, UNNotificationServiceExtension: an alert with mutable-content is handed to the app's
// extension, and the content it hands back is shown.
func TestServiceExtensionChangesWhatIsShown(t *testing.T) {
	apns := Start(t, Options{})
	token := apns.RegisterDevice(topic)
	device := apns.Device(token)
	device.SetApp(map[string]interface{}{"authorization": map[string]interface{}{"status": "authorized", "alert": true}})
	app := device.SetServiceExtension(`cat > /dev/null; echo '{"body": "decrypted"}'`, "", "")
	if extension, _ := app["serviceExtension"].(map[string]interface{}); extension["timeout"] != "30s" {
		t.Fatalf("serviceExtension: %v", app["serviceExtension"])
	}
	sent, err := apns.Push(token, `{"aps":{"alert":"sealed","mutable-content":1}}`, PushOptions{Topic: topic, PushType: "alert"})
	if err != nil || sent.Status != 200 {
		t.Fatalf("push: %v %v", sent, err)
	}
	shown, err := device.Presentation(sent.UniqueID, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	report, _ := shown["serviceExtension"].(map[string]interface{})
	original, _ := report["original"].(map[string]interface{})
	if shown["body"] != "decrypted" || report["outcome"] != "modified" || original["body"] != "sealed" {
		t.Fatalf("presentation: %v", shown)
	}
	if removed := device.SetServiceExtension("", "", ""); removed["serviceExtension"] != nil {
		t.Fatalf("removed: %v", removed["serviceExtension"])
	}
}

// Issue 51: beyond loopback the emulator makes an admin token; the fixture sends it, a bare request is refused.
func TestBeyondLoopbackTheMadeAdminToken(t *testing.T) {
	apns := Start(t, Options{Serve: map[string]string{"host": "0.0.0.0"}})
	if len(apns.AdminToken) != 43 {
		t.Fatalf("admin token %q, want 43 base64url characters", apns.AdminToken)
	}
	token := apns.RegisterDevice(topic)
	if status, _, _ := providerPush(t, apns, token, `{"aps":{"alert":"beyond"}}`, nil); status != 200 {
		t.Fatalf("push: %d", status)
	}
	if _, err := apns.WaitFor(Filter{Token: token}, 5*time.Second); err != nil {
		t.Fatalf("waitFor: %v", err)
	}
	answer, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/api/v1/devices", apns.Ports["admin"]))
	if err != nil {
		t.Fatal(err)
	}
	answer.Body.Close()
	if answer.StatusCode != 401 {
		t.Fatalf("without the token: %d, want 401", answer.StatusCode)
	}
}

func TestFaultsClockAndNearMisses(t *testing.T) {
	apns := Start(t, Options{})
	token := apns.RegisterDevice(topic)
	apns.Faults().Add(map[string]interface{}{"type": "respond", "reason": "TooManyRequests"}, map[string]interface{}{"topic": topic}, 1)
	if answer, err := apns.Push(token, `{"aps":{"alert":"one"}}`, PushOptions{Topic: topic}); err != nil || answer.Status != 429 || answer.Reason != "TooManyRequests" || answer.Protocol != "HTTP/2.0" {
		t.Fatalf("fault: %+v %v", answer, err)
	}
	if answer, err := apns.Push(token, `{"aps":{"alert":"two"}}`, PushOptions{Topic: topic}); err != nil || answer.Status != 200 {
		t.Fatalf("after the fault: %+v %v", answer, err)
	}
	if offset := apns.Clock().Advance("90m"); offset != 90*60*1000 {
		t.Fatalf("clock offset %d", offset)
	}
	_, err := apns.WaitFor(Filter{Token: token, Topic: "com.example.other"}, 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "near misses:") || !strings.Contains(err.Error(), topic) {
		t.Fatalf("waitFor: %v", err)
	}
}

// twoPushesWhileOffline sends two alerts to a token no device holds: the journal's statuses, oldest first.
func twoPushesWhileOffline(t *testing.T, apns *Emulator) []string {
	token := apns.RegisterDevice(topic)
	for _, text := range []string{"first", "second"} {
		if answer, err := apns.Push(token, `{"aps":{"alert":"`+text+`"}}`, PushOptions{Topic: topic}); err != nil || answer.Status != 200 {
			t.Fatalf("push %s: %+v %v", text, answer, err)
		}
	}
	var statuses []string
	for _, item := range apns.Notifications(Filter{Token: token}) {
		statuses = append([]string{fmt.Sprint(item["status"])}, statuses...)
	}
	return statuses
}

// Apple, "Sending notification requests to APNs": APNs stores only one notification per bundle ID
// while the device is offline; serve's --storage-policy all keeps every one.
func TestOfflineOneStoredPerAppUnlessAll(t *testing.T) {
	if got := twoPushesWhileOffline(t, Start(t, Options{})); strings.Join(got, ",") != "replaced,queued" {
		t.Fatalf("default storage: %v", got)
	}
	if got := twoPushesWhileOffline(t, Start(t, Options{Serve: map[string]string{"storage-policy": "all"}})); strings.Join(got, ",") != "queued,queued" {
		t.Fatalf("storage-policy all: %v", got)
	}
}

// providerToken is an ES256 JWT signed with a .p8 key, as Apple describes.
func providerToken(t *testing.T, key ProviderKey) string {
	data, err := os.ReadFile(key.P8Path)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	encode := func(v interface{}) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
	signed := encode(map[string]string{"alg": "ES256", "kid": key.KeyID}) + "." + encode(map[string]interface{}{"iss": key.TeamID, "iat": time.Now().Unix()})
	digest := sha256.Sum256([]byte(signed))
	r, s, err := ecdsa.Sign(rand.Reader, parsed.(*ecdsa.PrivateKey), digest[:])
	if err != nil {
		t.Fatal(err)
	}
	signature := make([]byte, 64)
	r.FillBytes(signature[:32])
	s.FillBytes(signature[32:])
	return signed + "." + base64.RawURLEncoding.EncodeToString(signature)
}

func TestStrictWithAKeyFromKeysCreate(t *testing.T) {
	apns := Start(t, Options{Serve: map[string]string{"auth": "strict"}})
	key := apns.Keys().Create("TEAM123456", topic)
	token := apns.RegisterDevice(topic)
	if status, reason, _ := providerPush(t, apns, token, `{"aps":{"alert":"hi"}}`, map[string]string{"authorization": "bearer " + providerToken(t, key)}); status != 200 {
		t.Fatalf("signed: %d %s", status, reason)
	}
	if status, reason, _ := providerPush(t, apns, token, `{"aps":{"alert":"hi"}}`, nil); status != 403 || reason != "MissingProviderToken" {
		t.Fatalf("unsigned: %d %s", status, reason)
	}
}

func TestSeedAndExport(t *testing.T) {
	device := strings.Repeat("9b", 32)
	seed := map[string]interface{}{"version": 1, "clock": map[string]interface{}{"offset": "1h"},
		"devices": []interface{}{map[string]interface{}{"id": "iphone-go", "power": map[string]bool{"locked": true},
			"apps": []interface{}{map[string]interface{}{"topic": topic, "token": device,
				"settings": map[string]interface{}{"badge": 5, "authorization": map[string]interface{}{"status": "denied"}}}}}}}
	apns := Start(t, Options{SeedDocument: seed})
	app := apns.Device(device).App()
	if app["deviceId"] != "iphone-go" || app["badge"] != float64(5) || apns.Device(device).Power()["locked"] != true {
		t.Fatalf("seeded app: %v", app)
	}
	again := Start(t, Options{SeedDocument: apns.Export()})
	if !reflect.DeepEqual(again.Device(device).App(), app) || !reflect.DeepEqual(again.Faults().List(), apns.Faults().List()) {
		t.Fatalf("an export seeded another world: %v", again.Device(device).App())
	}
}

// failing stands in for a test that fails, to see what Start gives it.
type failing struct {
	testing.TB
	logs     []string
	cleanups []func()
}

func (f *failing) Cleanup(body func()) { f.cleanups = append(f.cleanups, body) }
func (f *failing) Failed() bool        { return true }
func (f *failing) Logf(format string, arguments ...interface{}) {
	f.logs = append(f.logs, fmt.Sprintf(format, arguments...))
}
func (f *failing) Helper() {}

func TestAFailedTestGetsTheLog(t *testing.T) {
	test := &failing{TB: t}
	apns := Start(test, Options{})
	pid := apns.PID
	for _, cleanup := range test.cleanups {
		cleanup()
	}
	if len(test.logs) != 1 || !strings.Contains(test.logs[0], "apns-emulator log") || !strings.Contains(test.logs[0], "HTTP/2 provider API on") {
		t.Fatalf("logged: %v", test.logs)
	}
	if running(pid) {
		t.Fatalf("the emulator %d still runs after the cleanup", pid)
	}
}

// TestKilledRunnerLeavesNothing runs this test binary again as a runner that starts an emulator
// and hangs, kills it with SIGKILL, and waits up to 30 s for the emulator to go.
func TestKilledRunnerLeavesNothing(t *testing.T) {
	if os.Getenv("APNS_EMULATOR_GO_RUNNER") == "1" {
		apns, err := Launch(Options{})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		fmt.Println(apns.PID, apns.Directory)
		select {}
	}
	runner := exec.Command(os.Args[0], "-test.run=^TestKilledRunnerLeavesNothing$")
	runner.Env = append(os.Environ(), "APNS_EMULATOR_GO_RUNNER=1")
	out, _ := runner.StdoutPipe()
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	said := strings.SplitN(strings.TrimSpace(line), " ", 2)
	if len(said) != 2 {
		said = []string{line, ""}
	}
	pid, convert := strconv.Atoi(said[0])
	// The killed runner could not remove its emulator's directory: the test does.
	defer os.RemoveAll(said[1])
	if err != nil || convert != nil {
		_ = runner.Process.Kill()
		t.Fatalf("the runner said %q (%v)", line, err)
	}
	if !running(pid) {
		t.Fatalf("the emulator %d is not running", pid)
	}
	_ = runner.Process.Kill()
	_ = runner.Wait()
	// The emulator reads the end of its standard input and shuts down: within 30 s, or the test fails.
	deadline := time.Now().Add(30 * time.Second)
	for running(pid) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if running(pid) {
		t.Fatalf("the emulator %d still runs 30 s after its runner was killed", pid)
	}
}

// running says whether pid is a live process (a zombie waiting for a parent that does not reap
// it has ended).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// Web Push as Apple's push service takes it ("Sending web push notifications in web apps and
// browsers"; RFC 8030, 8291, 8292; WebKit's "Meet Declarative Web Push"): the fixture subscribes a
// web app, the test plays the application server with the fixture's sender, and reads the phone.
func TestWebPushReachesAWebApp(t *testing.T) {
	apns := Start(t, Options{})
	vapid, err := NewVAPIDKey()
	if err != nil {
		t.Fatal(err)
	}
	app := apns.SubscribeWebApp(vapid.PublicKey(), "https://shop.example", "")
	if want := fmt.Sprintf("https://%s:%d/push/%s", apns.Host, apns.Ports["webPush"], app.ID); app.Subscription.Endpoint != want {
		t.Fatalf("endpoint %q, want %q", app.Subscription.Endpoint, want)
	}
	message := `{"web_push": 8030, "notification": {"title": "Back in stock", "navigate": "https://shop.example/p/1"}, "app_badge": 2}`
	// TTL 0, as some libraries default to: the phone is here, so it is shown at once (issue 52).
	sent, err := apns.SendWebPush(app.Subscription, []byte(message), WebPushOptions{VAPID: vapid, Subject: "mailto:ops@shop.example", Urgency: "high"})
	if err != nil || sent.Status != 201 || !strings.HasSuffix(sent.Location, "/message/"+sent.UniqueID) {
		t.Fatalf("send: %+v %v", sent, err)
	}
	received, err := apns.WebPush(app, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if received.Outcome != "declarative" || !received.Shown || received.Title != "Back in stock" || received.Navigate != "https://shop.example/p/1" ||
		received.AppBadge == nil || *received.AppBadge != 2 || received.Message != message || received.VAPIDSubject != "mailto:ops@shop.example" ||
		received.UniqueID != sent.UniqueID {
		t.Fatalf("received %+v", received)
	}
	if status := apns.Notifications(Filter{Token: app.Token})[0]["status"]; status != "delivered" {
		t.Fatalf("status %v, want delivered", status)
	}

	// A page in Safari: its service worker shows the notification (POST .../show).
	page := apns.SubscribeWebApp(vapid.PublicKey(), "https://news.example", "safari")
	if sent, err := apns.SendWebPush(page.Subscription, []byte("breaking"), WebPushOptions{VAPID: vapid, Subject: "https://news.example", TTL: 60}); err != nil || sent.Status != 201 {
		t.Fatalf("send to the page: %+v %v", sent, err)
	}
	waiting, err := apns.WebPush(page, 5*time.Second)
	if err != nil || waiting.Outcome != "serviceWorker" || waiting.Message != "breaking" || waiting.Shown {
		t.Fatalf("the page's push: %+v %v", waiting, err)
	}
	shown := apns.ShowWebNotification(page, "Breaking", "Read it first")
	if presentation, _ := shown["presentation"].(map[string]interface{}); presentation["title"] != "Breaking" || presentation["body"] != "Read it first" {
		t.Fatalf("shown %v", shown)
	}

	// Signed with another key than the subscription's: 403 BadJwtToken, nothing more on the phone.
	stranger, _ := NewVAPIDKey()
	refused, err := apns.SendWebPush(app.Subscription, []byte("x"), WebPushOptions{VAPID: stranger, Subject: "mailto:ops@shop.example"})
	if err != nil || refused.Status != 403 || refused.Reason != "BadJwtToken" {
		t.Fatalf("a stranger's key: %+v %v", refused, err)
	}
	if handled, err := apns.WebPushes(app, 0, 0); err != nil || len(handled) != 1 {
		t.Fatalf("web pushes after the refusal: %d %v", len(handled), err)
	}
}

// Apple, "Sending notification requests to APNs": keep connections open across notifications;
// rapid connection and disconnection is treated as a denial-of-service attack.
func TestReportCardJudgesConnectionReuse(t *testing.T) {
	e := Start(t, Options{})
	token := e.RegisterDevice(topic)
	for n := 0; n < 6; n++ {
		if answer, err := e.Push(token, fmt.Sprintf(`{"aps":{"alert":"hi %d"}}`, n), PushOptions{Topic: topic, PushType: "alert"}); err != nil || answer.Status != 200 {
			t.Fatalf("push %d: %v %v", n, answer, err)
		}
	}
	e.AssertProviderBehaves("")
	if verdict := e.ProviderReport("").Check("connection-reuse").Verdict; verdict != "pass" {
		t.Fatalf("one connection: connection-reuse is %s", verdict)
	}
	e.Reset(false)
	for n := 0; n < 6; n++ {
		if status, _, _ := providerPush(t, e, token, fmt.Sprintf(`{"aps":{"alert":"again %d"}}`, n), nil); status != 200 {
			t.Fatalf("push %d: %d", n, status)
		}
	}
	failures := e.ProviderFailures("")
	if !strings.Contains(failures, "connection-reuse: 6 requests over 6 connections") || !strings.Contains(failures, "source: Apple") {
		t.Fatalf("a connection per push: %q", failures)
	}
	if e.ProviderFailures("", "backoff") != "" {
		t.Fatal("backoff was not exercised, so it cannot fail")
	}
}

// The exam (serve --provider-exam) through Options.Serve: a provider's 3rd request is answered
// 429 TooManyRequests, journaled as the exam's fault, and the report says the exam was on.
func TestExamThroughServeOptions(t *testing.T) {
	e := Start(t, Options{Serve: map[string]string{"provider-exam": "true"}})
	token := e.RegisterDevice(topic)
	var statuses []int
	var last PushResult
	for n := 0; n < 3; n++ {
		answer, err := e.Push(token, fmt.Sprintf(`{"aps":{"alert":"exam %d"}}`, n), PushOptions{Topic: topic, PushType: "alert"})
		if err != nil {
			t.Fatalf("push %d: %v", n, err)
		}
		statuses = append(statuses, answer.Status)
		last = answer
	}
	if fmt.Sprint(statuses) != "[200 200 429]" || last.Reason != "TooManyRequests" {
		t.Fatalf("the exam's 3rd request: %v %+v", statuses, last)
	}
	refused := e.Notifications(Filter{Status: "rejected"})
	if len(refused) != 1 {
		t.Fatalf("rejected: %v", refused)
	}
	if fault, _ := refused[0]["fault"].(map[string]interface{}); fault == nil || fault["id"] != "exam" {
		t.Fatalf("the 429 is not marked as the exam's: %v", refused[0])
	}
	if !e.ProviderReport("").Exam {
		t.Fatal("the report does not say the exam was on")
	}
}
