"""Liar's dice: one Betting phase of Lying Pirates as a game of its own (``liars_dice_v0``).

``game.py`` is the engine over ``bidbluff.envs.lying_pirates.betting`` (the rules the full
game shares), ``codec.py`` the action ids and observation, ``env.py`` the AEC env.
"""
