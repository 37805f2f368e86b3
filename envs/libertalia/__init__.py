"""Libertalia (2012): engine (rules), content, codec, AEC env."""
