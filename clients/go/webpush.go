package apnsemulator

// Web Push: a web app subscribed on the emulated phone, a push sent as an application server
// sends one (RFC 8291 aes128gcm encryption, an RFC 8292 VAPID JWT, POST to the endpoint per
// RFC 8030 section 5), and what the phone showed. The standard library only (Go 1.19: no
// crypto/ecdh yet, so the key agreement is crypto/elliptic's scalar multiplication).

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// WebApp is a web app subscribed to Web Push on the emulated phone (or a page in Safari).
type WebApp struct {
	ID, Origin, Kind string
	// Subscription is what PushSubscription.toJSON() gives the page: hand it to your server.
	Subscription WebPushSubscription
	// Token is the token its pushes are journaled under; HostToken its device's app's.
	Token, HostToken string
}

// WebPushSubscription is PushSubscription.toJSON(): the endpoint and the keys to encrypt for.
type WebPushSubscription struct {
	Endpoint       string `json:"endpoint"`
	ExpirationTime *int64 `json:"expirationTime"`
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// ReceivedWebPush is one web push as the emulated browser handled it.
type ReceivedWebPush struct {
	UniqueID string
	// Outcome is declarative (Safari showed it), serviceWorker, notAllowed, undecryptable or unsubscribed.
	Outcome string
	// Message is the decrypted message ("" when it did not decrypt).
	Message                                             string
	Shown                                               bool
	Title, Body, Navigate, VAPIDSubject, Urgency, Topic string
	AppBadge                                            *int
	Raw                                                 map[string]interface{}
}

// SubscribeWebApp is a Home Screen web app (kind "safari": a page in Safari) subscribing with the
// application server's VAPID public key (base64url, 65 bytes uncompressed), as
// PushManager.subscribe does, on a new device; origin "" is https://app.example.
func (e *Emulator) SubscribeWebApp(applicationServerKey, origin, kind string) WebApp {
	if origin == "" {
		origin = "https://app.example"
	}
	if kind == "" {
		kind = "homeScreen"
	}
	host := e.RegisterDevice("com.example.browser")
	var made struct {
		ID, Origin, Kind, Token, HostToken string
		Subscription                       WebPushSubscription
	}
	body := map[string]string{"origin": origin, "kind": kind, "permission": "granted", "applicationServerKey": applicationServerKey}
	e.must(e.Admin("POST", "/api/v1/devices/"+host+"/web-apps", body, 201, &made))
	// The endpoint as this machine reaches the service (a container's port is published elsewhere).
	if endpoint, err := url.Parse(made.Subscription.Endpoint); err == nil {
		made.Subscription.Endpoint = fmt.Sprintf("https://%s:%d%s", e.Host, e.Ports["webPush"], endpoint.Path)
	}
	return WebApp{ID: made.ID, Origin: made.Origin, Kind: made.Kind, Subscription: made.Subscription, Token: made.Token,
		HostToken: made.HostToken}
}

// WebPushes is every web push app received, newest first, once the browser handled them; it
// waits up to timeout for atLeast of them.
func (e *Emulator) WebPushes(app WebApp, atLeast int, timeout time.Duration) ([]ReceivedWebPush, error) {
	deadline := time.Now().Add(timeout)
	query := url.Values{"token": {app.Token}, "interface": {"webpush"}, "limit": {"100"}}.Encode()
	for {
		var page struct{ Items []map[string]interface{} }
		if err := e.Admin("GET", "/api/v1/notifications?"+query, nil, 200, &page); err != nil {
			return nil, err
		}
		var handled []ReceivedWebPush
		var seen []string
		for _, item := range page.Items {
			if received, ok := receivedWebPush(item); ok {
				handled = append(handled, received)
			}
			seen = append(seen, fmt.Sprint(item["status"]))
		}
		if len(handled) >= atLeast {
			return handled, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s (%s) received %d web pushes within %s, not %d: %v", app.Origin, app.ID, len(handled), timeout, atLeast, seen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WebPush is the oldest web push app received that the browser has handled, waiting up to timeout.
func (e *Emulator) WebPush(app WebApp, timeout time.Duration) (ReceivedWebPush, error) {
	handled, err := e.WebPushes(app, 1, timeout)
	if err != nil {
		return ReceivedWebPush{}, err
	}
	return handled[len(handled)-1], nil
}

// ShowWebNotification is the web app's service worker calling showNotification(title, {body})
// for the oldest push still waiting for one; the answer holds what Notification Center shows.
func (e *Emulator) ShowWebNotification(app WebApp, title, body string) map[string]interface{} {
	document := map[string]string{"title": title}
	if body != "" {
		document["body"] = body
	}
	var shown map[string]interface{}
	e.must(e.Admin("POST", "/api/v1/devices/"+app.HostToken+"/web-apps/"+app.ID+"/show", document, 201, &shown))
	return shown
}

func receivedWebPush(item map[string]interface{}) (ReceivedWebPush, bool) {
	presentation, _ := item["presentation"].(map[string]interface{})
	web, _ := presentation["webPush"].(map[string]interface{})
	if web == nil {
		return ReceivedWebPush{}, false
	}
	text := func(from map[string]interface{}, name string) string { value, _ := from[name].(string); return value }
	received := ReceivedWebPush{UniqueID: text(item, "uniqueId"), Outcome: text(web, "outcome"), Message: text(web, "message"),
		Title: text(presentation, "title"), Body: text(presentation, "body"), Navigate: text(web, "navigate"),
		VAPIDSubject: text(web, "vapidSubject"), Urgency: text(web, "urgency"), Topic: text(web, "topic"), Raw: item}
	received.Shown, _ = presentation["shown"].(bool)
	if badge, ok := web["appBadge"].(float64); ok {
		value := int(badge)
		received.AppBadge = &value
	}
	return received, true
}

// VAPIDKey is an application server's VAPID key pair.
type VAPIDKey struct{ Private *ecdsa.PrivateKey }

// NewVAPIDKey makes a VAPID key pair (P-256).
func NewVAPIDKey() (VAPIDKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	return VAPIDKey{Private: key}, err
}

// PublicKey is the public key as subscribe's applicationServerKey: base64url, 65 bytes uncompressed.
func (k VAPIDKey) PublicKey() string {
	return base64.RawURLEncoding.EncodeToString(elliptic.Marshal(elliptic.P256(), k.Private.X, k.Private.Y))
}

// WebPushOptions are an application server's choices for one push.
type WebPushOptions struct {
	VAPID VAPIDKey
	// Subject is the VAPID sub claim: mailto: or an https URL (RFC 8292 section 2.1).
	Subject string
	// TTL in seconds (0 is "now or never"); Urgency very-low, low, normal or high; Topic a collapse key.
	TTL            int
	Urgency, Topic string
}

// WebPushResult is the push service's answer.
type WebPushResult struct {
	Status                     int
	Reason, Location, UniqueID string
	Warnings                   []string
	Protocol                   string
}

// SendWebPush sends message to subscription as an application server does, over this emulator's
// TLS (trusting its CA), HTTP/2 by ALPN as Go's net/http chooses.
func (e *Emulator) SendWebPush(subscription WebPushSubscription, message []byte, options WebPushOptions) (WebPushResult, error) {
	return SendWebPush(e.provider, subscription, message, options)
}

// SendWebPush sends message with client (which must trust the endpoint's certificate).
func SendWebPush(client *http.Client, subscription WebPushSubscription, message []byte, options WebPushOptions) (WebPushResult, error) {
	if options.VAPID.Private == nil || options.Subject == "" {
		return WebPushResult{}, errors.New("SendWebPush needs options.VAPID (NewVAPIDKey) and options.Subject (mailto: or https:)")
	}
	body, err := EncryptWebPush(message, subscription.Keys.P256dh, subscription.Keys.Auth)
	if err != nil {
		return WebPushResult{}, err
	}
	authorization, err := vapidAuthorization(subscription.Endpoint, options.VAPID, options.Subject)
	if err != nil {
		return WebPushResult{}, err
	}
	request, err := http.NewRequest("POST", subscription.Endpoint, bytes.NewReader(body))
	if err != nil {
		return WebPushResult{}, err
	}
	request.Header.Set("Content-Encoding", "aes128gcm")
	request.Header.Set("Content-Type", "application/octet-stream")
	request.Header.Set("TTL", fmt.Sprint(options.TTL))
	request.Header.Set("Authorization", authorization)
	if options.Urgency != "" {
		request.Header.Set("Urgency", options.Urgency)
	}
	if options.Topic != "" {
		request.Header.Set("Topic", options.Topic)
	}
	answer, reason, err := send(client, request)
	if err != nil {
		return WebPushResult{}, err
	}
	return WebPushResult{Status: answer.StatusCode, Reason: reason, Location: answer.Header.Get("Location"),
		UniqueID: answer.Header.Get("apns-unique-id"), Warnings: answer.Header.Values("apns-emulator-warning"), Protocol: answer.Proto}, nil
}

// hkdf is HKDF-SHA-256 (RFC 5869) of at most 32 bytes: one block of expansion.
func hkdf(salt, secret, info []byte, length int) []byte {
	extract := hmac.New(sha256.New, salt)
	extract.Write(secret)
	expand := hmac.New(sha256.New, extract.Sum(nil))
	expand.Write(info)
	expand.Write([]byte{1})
	return expand.Sum(nil)[:length]
}

// EncryptWebPush is the aes128gcm body of message for a subscription's keys (RFC 8291 section
// 3.4): salt, record size, the sender's public key, then one record ending in the delimiter 2.
func EncryptWebPush(message []byte, p256dh, auth string) ([]byte, error) {
	receiver, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(p256dh, "="))
	if err != nil {
		return nil, fmt.Errorf("p256dh: %w", err)
	}
	secret, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(auth, "="))
	if err != nil {
		return nil, fmt.Errorf("auth: %w", err)
	}
	curve := elliptic.P256()
	x, y := elliptic.Unmarshal(curve, receiver)
	if x == nil {
		return nil, errors.New("p256dh is not an uncompressed P-256 point")
	}
	sender, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		return nil, err
	}
	senderPublic := elliptic.Marshal(curve, sender.X, sender.Y)
	sharedX, _ := curve.ScalarMult(x, y, sender.D.Bytes())
	shared := make([]byte, 32)
	sharedX.FillBytes(shared)
	info := append(append([]byte("WebPush: info\x00"), receiver...), senderPublic...)
	ikm := hkdf(secret, shared, info, 32)
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(hkdf(salt, ikm, []byte("Content-Encoding: aes128gcm\x00"), 16))
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	sealed := gcm.Seal(nil, hkdf(salt, ikm, []byte("Content-Encoding: nonce\x00"), 12), append(append([]byte{}, message...), 2), nil)
	header := make([]byte, 0, 86+len(sealed))
	header = append(header, salt...)
	header = binary.BigEndian.AppendUint32(header, 4096)
	header = append(header, byte(len(senderPublic)))
	header = append(header, senderPublic...)
	return append(header, sealed...), nil
}

// vapidAuthorization is "vapid t=<JWT>, k=<public key>" for the endpoint's origin (RFC 8292 section 3).
func vapidAuthorization(endpoint string, key VAPIDKey, subject string) (string, error) {
	parsed, err := url.Parse(endpoint)
	if err != nil {
		return "", err
	}
	encode := func(value interface{}) string {
		data, _ := json.Marshal(value)
		return base64.RawURLEncoding.EncodeToString(data)
	}
	claims := map[string]interface{}{"aud": parsed.Scheme + "://" + parsed.Host, "exp": time.Now().Add(12 * time.Hour).Unix(), "sub": subject}
	signed := encode(map[string]string{"typ": "JWT", "alg": "ES256"}) + "." + encode(claims)
	digest := sha256.Sum256([]byte(signed))
	r, s, err := ecdsa.Sign(rand.Reader, key.Private, digest[:])
	if err != nil {
		return "", err
	}
	signature := make([]byte, 64)
	r.FillBytes(signature[:32])
	s.FillBytes(signature[32:])
	return fmt.Sprintf("vapid t=%s.%s, k=%s", signed, base64.RawURLEncoding.EncodeToString(signature), key.PublicKey()), nil
}
