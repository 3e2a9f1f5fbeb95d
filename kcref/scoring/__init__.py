"""Scoring across hands, games and nights: running totals and standings."""
