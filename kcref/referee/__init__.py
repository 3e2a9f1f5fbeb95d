"""Refereeing: hands grouped from events, set-up checks, replay through the engine, the verdict,
and the check pipeline."""
