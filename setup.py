"""The one compiled module, beside pyproject.toml (which holds everything else).

``bidbluff.envs.core._speedups`` is plain C against Python's own API (no Cython, no numpy headers): the
kernels that end the observation encoders, and the betting env's dice draw.
It is optional: where it cannot be built (no C compiler) the
install still succeeds, and the envs run their pure-Python encoders, with a warning (envs/core/speedups.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bidbluff.envs.core._speedups",
            ["envs/core/_speedups.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
