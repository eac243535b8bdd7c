// Types for the apns-emulator test fixture.
export interface StartOptions {
  /** The apns-emulator binary; else APNS_EMULATOR_BIN, else PATH. */
  binary?: string;
  /** The container image to run instead (else APNS_EMULATOR_IMAGE). */
  image?: string;
  /** A seed file's path, or a seed document (docs/seed.schema.json). */
  seed?: string | object;
  /** serve's flags: {auth: 'strict', storagePolicy: 'latest', ...}. */
  serve?: Record<string, string | number | boolean>;
  startTimeoutMs?: number;
}
export interface PushOptions {
  topic?: string; pushType?: string; priority?: number; expiration?: number; collapseId?: string; apnsId?: string;
  authorization?: string; headers?: Record<string, string>;
  /** The endpoint: development (the sandbox, the default) or production. */
  environment?: 'development' | 'sandbox' | 'production';
}
export interface PushResult {
  status: number; reason?: string; apnsId?: string; uniqueId?: string; detail?: string; warnings: string[];
}
export interface Filter { token?: string; topic?: string; status?: string; pushType?: string; environment?: 'development' | 'sandbox' | 'production'; }
export interface ProviderKey { keyId: string; teamId: string; p8Path: string; p8: string; }
export declare class Device {
  token: string;
  app(): Promise<any>;
  setApp(fields: object): Promise<any>;
  delivered(): Promise<any[]>;
  activities(): Promise<any[]>;
  respond(uniqueId: string, action?: string, text?: string): Promise<any>;
  power(state?: { online?: boolean; lowPowerMode?: boolean; locked?: boolean }): Promise<any>;
  focus(): Promise<{ deviceId: string; active: string | null; allowedApps: string[]; timeSensitive: boolean | null; apps: number }>;
  setFocus(active: string | null, options?: { allowedApps?: string[]; timeSensitive?: boolean }): Promise<any>;
  setServiceExtension(options?: { command?: string; url?: string; timeout?: string }): Promise<any>;
  presentation(uniqueId: string, options?: { timeout?: number }): Promise<any>;
}
export interface WebPushSubscriptionJSON { endpoint: string; expirationTime: number | null; keys: { p256dh: string; auth: string }; }
export interface WebApp {
  id: string; origin: string; kind: string;
  /** What PushSubscription.toJSON() gives the page: give it to your server unchanged. */
  subscription: WebPushSubscriptionJSON;
  /** The token its pushes are journaled under, and its device's app's. */
  token: string; hostToken: string; raw: any;
}
export interface ReceivedWebPush {
  uniqueId: string;
  /** declarative (Safari showed it), serviceWorker, notAllowed, undecryptable, unsubscribed. */
  outcome: string;
  /** The decrypted message (undefined when it did not decrypt). */
  message?: string;
  shown: boolean; title?: string; body?: string; navigate?: string; appBadge?: number; vapidSubject?: string;
  urgency?: string; topic?: string; detail?: string; raw: any;
}
export interface VapidKeys { privateKey: import('crypto').KeyObject; publicKey: string; }
export interface WebPushOptions { vapid: VapidKeys; subject: string; ttl?: number; urgency?: 'very-low' | 'low' | 'normal' | 'high'; topic?: string; ca?: string | Buffer; }
export interface WebPushResult { status: number; reason?: string; location?: string; uniqueId?: string; warnings: string[]; text: string; }
export declare class Emulator {
  host: string;
  ports: { http2: number; productionHttp2: number; admin: number; device: number; gateway: number; feedback: number; channels: number; webPush: number };
  caPath: string;
  /** The admin token the admin API asks for (undefined when none); every admin call sends it. */
  adminToken?: string;
  directory: string;
  pid?: number;
  readonly url: string;
  /** The sandbox endpoint (api.sandbox.push.apple.com): a development setting's URL. */
  readonly sandboxUrl: string;
  /** The production endpoint (api.push.apple.com): a production setting's URL. */
  readonly productionUrl: string;
  urlFor(environment: 'development' | 'sandbox' | 'production'): string;
  checkToken(token: string): Promise<{ known: boolean; environment?: string; endpoint?: string; topic?: string; deviceId?: string; registered: boolean; registeredAt?: string; unregisteredAt?: string; queued: number; verdict: string }>;
  log(): string;
  push(token: string, payload: object | string | Buffer, options?: PushOptions): Promise<PushResult>;
  registerDevice(topic: string, token?: string, environment?: 'development' | 'sandbox' | 'production'): Promise<string>;
  device(token: string): Device;
  notifications(filter?: Filter & { limit?: number }): Promise<any[]>;
  waitFor(filter?: Filter, timeoutMs?: number): Promise<any>;
  subscribeWebApp(applicationServerKey: string, options?: { origin?: string; kind?: 'homeScreen' | 'safari'; permission?: string; token?: string }): Promise<WebApp>;
  sendWebPush(subscription: WebPushSubscriptionJSON, message: string | Buffer | object, options: WebPushOptions): Promise<WebPushResult>;
  webPush(webApp: WebApp, timeoutMs?: number): Promise<ReceivedWebPush>;
  webPushes(webApp: WebApp, options?: { timeoutMs?: number; atLeast?: number }): Promise<ReceivedWebPush[]>;
  showWebNotification(webApp: WebApp, title: string, options?: { body?: string; navigate?: string }): Promise<any>;
  reset(devices?: boolean): Promise<void>;
  export(): Promise<object>;
  admin(method: string, pathAndQuery: string, body?: object, expect?: number): Promise<any>;
  faults: { add(action: string | object, options?: { match?: object; times?: number; probability?: number }): Promise<any>; list(): Promise<any[]>; clear(): Promise<any> };
  clock: { advance(by: string): Promise<{ now: string; offsetMs: number }>; now(): Promise<{ now: string; offsetMs: number }> };
  keys: { create(options?: { teamId?: string; keyId?: string; topics?: string[]; environment?: string }): ProviderKey };
  stop(): Promise<void>;
  remove(): void;
}
export declare class EmulatorError extends Error {}
/** A new VAPID key pair for your application server (the public key base64url, to subscribe with). */
export declare function generateVapidKeys(): VapidKeys;
/** A web push as an application server sends one: RFC 8291 encryption, a VAPID JWT, POST to the endpoint. */
export declare function sendWebPush(subscription: WebPushSubscriptionJSON, message: string | Buffer | object, options: WebPushOptions): Promise<WebPushResult>;
export declare function startEmulator(options?: StartOptions): Promise<Emulator>;
export declare function withEmulator<T>(body: (emulator: Emulator) => Promise<T>): Promise<T>;
export declare function withEmulator<T>(options: StartOptions, body: (emulator: Emulator) => Promise<T>): Promise<T>;
