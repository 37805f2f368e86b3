"""Where agents meet: single games and matches (``match``), fair-seated tournaments with ratings
(``tournament``), game records and their replay (``records``), and terminal play (``play``)."""
