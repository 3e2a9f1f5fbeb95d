"""The values everything else works on: cards, rule options, events, diagnostic codes and diagnostics."""
