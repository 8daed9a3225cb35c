"""A linear probe per layer: how easily a label can be read out of the stream by one linear map.

For every layer state (embedding ... output) a multinomial logistic regression is fitted on
the training sentences' word vectors and scored on the held-out sentences (Tenney et al. 2019
probe with richer classifiers; this is the simplest linear version). Everything is numpy and
deterministic: features standardised with the training mean and spread, weights start at
zero, a fixed number of accelerated gradient steps with a step size from the data's own
largest singular value, an L2 penalty fixed in advance (not tuned on the held-out split).
Chance is the share of the held-out set's most common label: what always guessing it scores.
"""

from __future__ import annotations

import numpy as np

from ..probe_set import PUNCT, ProbeSentence
from ..trace import Trace
from .vectors import layer_states

L2 = 0.01           # penalty on the mean cross-entropy, fixed before looking at any score
ITERATIONS = 300    # accelerated gradient steps


def word_states(trace: Trace, sentence: ProbeSentence) -> np.ndarray:
    """[n_words, n_states, d_model]: each word's vector (mean of its tokens) at every layer
    state. Words are found by their character span in the trace's word table."""
    by_span = {tuple(w["span"]): w["positions"] for w in trace.meta["words"]}
    states = np.stack([trace[h] for h in layer_states(trace)], axis=1)     # [tok, S, d]
    out = []
    for word, _, start, end in sentence.words:
        pos = by_span.get((start, end))
        if not pos:
            raise ValueError(f"{sentence.text!r}: no tokens for {word!r} at {start}:{end}")
        out.append(states[pos].mean(axis=0))
    return np.stack(out).astype(np.float64)


def task_examples(sentences: list[ProbeSentence], vectors: list[np.ndarray], task: str):
    """(X [n, S, d], labels [n], held_out [n], sentence index [n]) for task "syntax" (every
    word but punctuation, its part of speech) or "sense" (the ambiguous noun, its sense)."""
    X, y, held, sid = [], [], [], []
    for i, (s, v) in enumerate(zip(sentences, vectors)):
        if task == "syntax":
            picks = [(k, tag) for k, (_, tag, _, _) in enumerate(s.words) if tag != PUNCT]
        elif task == "sense":
            picks = [(s.target, s.sense)]
        else:
            raise ValueError(f"unknown probe task {task!r}")
        for k, label in picks:
            X.append(v[k])
            y.append(label)
            held.append(s.held_out)
            sid.append(i)
    return np.stack(X), np.array(y), np.array(held), np.array(sid)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit(X: np.ndarray, y: np.ndarray, n_classes: int, l2: float = L2,
        iterations: int = ITERATIONS) -> np.ndarray:
    """Weights [d + 1, n_classes] (last row: bias) of a multinomial logistic regression on
    X [n, d] (already standardised), y [n] class indices; Nesterov-accelerated gradient
    descent from zero with step 1/L, L = ||[X 1]||^2 / (2n) + l2 bounding the curvature."""
    A = np.hstack([X, np.ones((len(X), 1))])
    n = len(A)
    Y = np.eye(n_classes)[y]
    step = 1.0 / (np.linalg.norm(A, 2) ** 2 / (2 * n) + l2)
    W = np.zeros((A.shape[1], n_classes))
    V, t = W.copy(), 1.0
    mask = np.ones((A.shape[1], 1))
    mask[-1] = 0.0                      # the bias is not penalised
    for _ in range(iterations):
        grad = A.T @ (_softmax(A @ V) - Y) / n + l2 * mask * V
        W_next = V - step * grad
        t_next = (1 + np.sqrt(1 + 4 * t * t)) / 2
        V = W_next + ((t - 1) / t_next) * (W_next - W)
        W, t = W_next, t_next
    return W


def predict(W: np.ndarray, X: np.ndarray) -> np.ndarray:
    return np.argmax(np.hstack([X, np.ones((len(X), 1))]) @ W, axis=1)


def probe_layers(X: np.ndarray, labels: np.ndarray, held_out: np.ndarray) -> dict:
    """Per layer state: train and held-out accuracy of a probe fitted on the training rows.
    X [n, S, d]. Labels seen only in the held-out rows count as misses."""
    train, test = ~held_out, held_out
    classes = sorted(set(labels[train].tolist()))
    index = {c: i for i, c in enumerate(classes)}
    y_train = np.array([index[c] for c in labels[train]])
    y_test = np.array([index.get(c, -1) for c in labels[test]])
    acc, acc_train = [], []
    for s in range(X.shape[1]):
        tr, te = X[train, s], X[test, s]
        mu, sd = tr.mean(axis=0), tr.std(axis=0)
        sd = np.where(sd > 0, sd, 1.0)
        tr, te = (tr - mu) / sd, (te - mu) / sd
        W = fit(tr, y_train, len(classes))
        acc_train.append(float(np.mean(predict(W, tr) == y_train)))
        acc.append(float(np.mean(predict(W, te) == y_test)))
    values, counts = np.unique(labels[test], return_counts=True)
    return {"classes": classes, "accuracy": acc, "train_accuracy": acc_train,
            "chance": float(counts.max() / counts.sum()), "majority": str(values[counts.argmax()]),
            "n_train": int(train.sum()), "n_test": int(test.sum())}


TASKS = {"syntax": "part of speech", "sense": "living or made"}


def nouns_in_every_sense(sentences: list[ProbeSentence]) -> int:
    """How many nouns of the set appear in every sense the set uses (a noun in one sense only
    would let the probe read the noun, not the sense)."""
    senses = {s.sense for s in sentences}
    return sum({s.sense for s in sentences if s.noun == n} == senses
               for n in {s.noun for s in sentences})


def run_probe(sentences: list[ProbeSentence], traces: list[Trace]) -> dict:
    """Both tasks on one set: the set's size and split, the probe's settings, and per task
    the accuracies of `probe_layers` (shares, and in percent for the screen)."""
    vectors = [word_states(t, s) for t, s in zip(traces, sentences)]
    held = [s.held_out for s in sentences]
    tasks = []
    for task, title in TASKS.items():
        r = probe_layers(*task_examples(sentences, vectors, task)[:3])
        acc = np.asarray(r["accuracy"])
        tasks.append({"task": task, "title": title, **r,
                      "accuracy_percent": (100 * acc).tolist(),
                      "chance_percent": 100 * r["chance"],
                      "best": int(np.argmax(acc))})    # first state with the highest score
    syntax = next(t for t in tasks if t["task"] == "syntax")
    return {"set": {"sentences": len(sentences), "test_sentences": int(sum(held)),
                    "train_sentences": len(sentences) - int(sum(held)),
                    "words": syntax["n_train"] + syntax["n_test"],
                    "nouns": sorted({s.noun for s in sentences}),
                    "senses": sorted({s.sense for s in sentences}),
                    "nouns_in_both": nouns_in_every_sense(sentences)},
            "method": {"l2": L2, "iterations": ITERATIONS,
                       "features": "a word's vector: the mean of its tokens",
                       "split": "by sentence: the last sentences of every noun and sense"},
            "tasks": tasks}
