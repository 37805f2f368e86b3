"""The shipped checkpoints, as package data of ``bidbluff.checkpoints``: ``<game>/selfplay.zip`` with its
``.json`` sidecar, and the Liar's dice CFR+ table.  ``bidbluff.agents`` finds them through
``importlib.resources``, in a checkout and in an installed wheel alike."""
