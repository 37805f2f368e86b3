"""Matches, tournaments and ratings, the single-agent gymnasium view, PPO training and self-play."""
