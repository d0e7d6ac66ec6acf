#!/usr/bin/env python3
"""Makes `tests/oracles/ludii/SLUG.txt.gz` from Ludii's data (format "1").

Run by hand when new data arrives, SOURCE being the folder of Ludii's
files as they arrive (format "1", `SLUG.jsonl.gz`):

    python3 tools/ludii_compact.py SOURCE tests/oracles/ludii [SLUG...]

The output keeps what `tests/ludii.rs` compares and drops Ludii's own
bookkeeping (move descriptions, applied actions, variables, values,
pending and remembered values). Its format is written in
`tests/oracles/README.md` ("ludii/"). Each file is checked as it is
written: the chosen move's position is the next ply's, and replaying the
compact lines gives every ply's position back.
"""

import gzip
import json
import os
import sys

# Position fields a variant may hold in its own terms and the test compares:
# seeds (always), scores, Ludii's site states and its piece kinds.
KEPT = ("scores", "states", "what")


def place(m):
    """A move's places: `F>T`, `F` when from == to, `P` a pass, `-` none."""
    if m.get("pass"):
        return "P"
    f, t = m.get("from"), m.get("to")
    if f is None and t is None:
        return "-"
    if f is None or t is None:
        raise ValueError(f"a move with one place only: {m}")
    return str(f) if f == t else f"{f}>{t}"


def move_text(m):
    after = m["after"]
    delta = after.get("delta", [])
    text = place(m)
    text += ":" + ",".join(f"{delta[i]}={delta[i + 1]}" for i in range(0, len(delta), 2))
    extra = {k: after[k] for k in KEPT if k in after}
    if extra:
        text += json.dumps(extra, separators=(",", ":"))
    if m.get("ends"):
        text += "!"
    return text


def apply(pos, after):
    """The position after a move: the rule of the data's README."""
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in pos.items()}
    delta = after.get("delta", [])
    for i in range(0, len(delta), 2):
        out["counts"][delta[i]] = delta[i + 1]
    for k, v in after.items():
        if k == "delta":
            continue
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def kept(pos):
    return {k: pos[k] for k in ("counts",) + KEPT if k in pos}


def convert(src, dst):
    lines = []
    with gzip.open(src, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    layout = rows[0]
    assert layout["type"] == "layout" and layout["format"] == "1", src
    phases = layout["phases"]
    head = {
        k: layout[k]
        for k in (
            "game", "lud", "ruleset", "options", "options_in_effect",
            "ruleset_in_effect", "ludii_version", "board", "players",
            "uses_score", "stochastic", "seed", "games", "max_plies",
            "phases", "sites",
        )
    }
    head["format"] = "sow-ludii-1"
    lines.append(json.dumps(head, separators=(",", ":")))
    pos = None
    expect_next = None
    for r in rows[1:]:
        if r["type"] == "ply":
            if r["ply"] == 0:
                pos = r["pos"]
                lines.append("g " + json.dumps(kept(pos), separators=(",", ":")))
            else:
                assert kept(r["pos"]) == kept(expect_next), (src, r["g"], r["ply"])
                pos = r["pos"]
            chosen = r["chosen"]
            moves = r["moves"]
            words = [
                "p",
                str(r["mover"]),
                "1" if r["same_turn"] else "0",
                str(phases.index(r["phase"])),
                "-" if chosen is None else str(chosen),
            ]
            words += [move_text(m) for m in moves]
            lines.append(" ".join(words))
            if chosen is not None:
                expect_next = apply(pos, moves[chosen]["after"])
        elif r["type"] == "result":
            if expect_next is not None and r["stop"] != "no_moves":
                assert kept(r["pos"]) == kept(expect_next), (src, r["g"], "result")
            res = {k: r[k] for k in ("plies", "stop", "ranks", "winner", "draw", "scores") if k in r}
            lines.append("r " + json.dumps(res, separators=(",", ":")))
            expect_next = None
        else:
            raise ValueError(f"{src}: a line of type {r['type']}")
    with gzip.open(dst, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write("\n".join(lines) + "\n")


def main():
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    names = sorted(n for n in os.listdir(src) if n.endswith(".jsonl.gz"))
    only = set(sys.argv[3:])
    for n in names:
        slug = n[: -len(".jsonl.gz")]
        if only and slug not in only:
            continue
        convert(os.path.join(src, n), os.path.join(dst, slug + ".txt.gz"))
        print(slug, os.path.getsize(os.path.join(dst, slug + ".txt.gz")))


if __name__ == "__main__":
    main()
