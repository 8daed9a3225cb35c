"""The show names of the per_head template, declared once (spec.py and the scene use them)."""

TOKENS, X, HEADS, QUERY, KEYS = "tokens", "x", "heads", "query", "keys"
DOTS, SCALE, EXP, SOFTMAX, VALUES = "dots", "scale", "exp", "softmax", "values"
MATRIX, DIAGONAL, GRID, JOIN, ADD = "matrix", "diagonal", "grid", "join", "add"
SHOWS = (TOKENS, X, HEADS, QUERY, KEYS, DOTS, SCALE, EXP, SOFTMAX, VALUES, MATRIX, DIAGONAL,
         GRID, JOIN, ADD)
