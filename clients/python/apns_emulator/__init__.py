"""pytest fixtures for apns-emulator: `apns_emulator` (one per test) and `apns_emulator_session`."""
from .emulator import APNsEmulator, Device, EmulatorError, find_binary
from .results import Clock, FaultRule, Notification, ProviderKey, PushResult, WebApp, WebPush

__all__ = ["APNsEmulator", "Clock", "Device", "EmulatorError", "FaultRule", "Notification", "ProviderKey", "PushResult", "WebApp", "WebPush", "find_binary"]
