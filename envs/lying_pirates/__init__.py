"""Lying Pirates in three wings (docs/lying_pirates_engine.md): the table (plain data: ``table``, ``frames``, the dice,
the content, the bets, shared with ``liars_dice_v0``), the engine (its declared stages: ``stages``, ``engine`` and one
module per part of a round), the saves (``state``, and the checks a restore runs); over them the codec and the env."""
