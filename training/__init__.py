"""Matches, tournaments and (later) training for bidbluff envs."""
