"""Lying Pirates' codec, as every game of the package has one: in three modules by job.

``action_codec``: the engine's actions as flat ids and back; ``observation``: the layout of the observation
vector (every field with its scale) and named views over it; ``encoder``: a seat's observation of a state.
"""

from bidbluff.envs.lying_pirates.action_codec import CODEC, FULL_CODEC, action_ids, action_to_id, id_to_action
from bidbluff.envs.lying_pirates.encoder import encode
from bidbluff.envs.lying_pirates.observation import FULL_LAYOUT, LAYOUT, view

__all__ = [
    "CODEC",
    "FULL_CODEC",
    "FULL_LAYOUT",
    "LAYOUT",
    "action_ids",
    "action_to_id",
    "encode",
    "id_to_action",
    "view",
]
