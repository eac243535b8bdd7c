enum _PlaceholderAPNsTestSupport {}
