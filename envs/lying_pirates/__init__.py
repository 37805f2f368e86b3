"""Lying Pirates: dice, the betting round (also the ``liars_dice_v0`` benchmark)."""
