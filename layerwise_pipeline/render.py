"""Render storyboards from their plans: `layerwise render|preview [--quality l] FILE...`.

Beats in parallel: `--jobs N`, on Dask with `--scheduler local` or `--scheduler tls://host:8786
--tls-ca ca.pem --tls-cert client.pem --tls-key client-key.pem` (`cluster_security`).

`layerwise render` plans first (in a child process) unless `--planned`; this process never
imports torch. Outputs follow Manim's layout under media/: videos/<quality>/<name>.mp4,
sections/, the .srt subtitles, and with --preview (or --frames DIR) one PNG per beat.
"""

from __future__ import annotations

from pathlib import Path

from layerwise_core.media import MEDIA, Media
from layerwise_render.session import QUALITIES

from .cli import say
from .cluster_security import add_options as add_cluster_options
from .cluster_security import cluster_tls
from .review import contact_sheet

from .scene_render import load_plan, render



def add_arguments(p) -> None:
    p.add_argument("storyboards", nargs="+", type=Path)
    p.add_argument("--quality", choices=QUALITIES, default="l")
    p.add_argument("--preview", action="store_true", help="per-beat PNG frames only, fast")
    p.add_argument("--frames", type=Path, default=None, help="also write per-beat PNG frames")
    p.add_argument("--midplay", action="store_true",
                   help="with --preview: the text sizes in the middle of every play too, in "
                        "frames/<name>/text/ (scripts/legibility_report.py)")
    p.add_argument("--media", type=Path, default=MEDIA)
    p.add_argument("--until", default=None, help="stop after this beat id")
    p.add_argument("--jobs", type=int, default=1,
                   help="render the beats in parallel in N processes (1: one whole render)")
    add_cluster_options(p, "render the beats on a Dask cluster: tls://host:8786 (tcp:// on a "
                           "trusted network only), or 'local' for a LocalCluster of --jobs "
                           "single-thread workers ('none': a process pool of --jobs)")


def _main(args) -> int:
    tls = cluster_tls(args, say)
    plans = [load_plan(s, args.media) for s in args.storyboards]
    beats = args.jobs > 1 or args.scheduler not in (None, "none")
    if beats and not (args.preview or args.frames or args.until):
        from .cluster import runner_for                 # Dask only when a cluster is asked for
        from .jobs import render_storyboards
        with runner_for(args.scheduler, args.jobs, tls) as runner:
            out = render_storyboards(plans, args.quality, args.media, runner,
                                     media_of=lambda name: args.media)
        for plan in plans:
            print(out[plan["storyboard"]["name"]]["video"], flush=True)
        return 0
    for plan in plans:
        out = render(plan, args.quality, args.media, args.preview, args.frames, args.until,
                     midplay=args.midplay)
        if args.preview:
            name = plan["storyboard"]["name"]
            media = Media(args.media)
            frames = args.frames / name if args.frames else media.frames(name)
            out = contact_sheet(plan, frames, media.review(name))
        print(out, flush=True)
    return 0

