"""``python -m bidbluff``: the ``bidbluff`` command."""

from bidbluff.cli import main

raise SystemExit(main())
