"""The show names of toy_loop's beats, declared once (spec.py and the scene use these)."""

CODE, X, Q, K, V, UPDATE, TABLE, NOTE = "code", "x", "q", "k", "v", "update", "table", "note"
SHOWS = {CODE, X, Q, K, V, UPDATE, TABLE, NOTE}
