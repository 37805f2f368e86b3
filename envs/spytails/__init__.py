"""Spytails: engine (rules), content, codec, AEC env."""
