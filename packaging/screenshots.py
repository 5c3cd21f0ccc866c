"""Screenshots of every tab in each language and theme, with an HTML page to look at them side by side.

    python packaging/screenshots.py                    # demo database, en/zh_CN x light/dark
    python packaging/screenshots.py --out shots --db path/to/memory.sqlite --langs zh_CN --themes dark

Each combination runs ``python -m philont_desktop --db DB --screenshot OUT/<lang>-<theme> --theme THEME
--lang LANG`` in its own process (offscreen unless ``QT_QPA_PLATFORM`` says otherwise, with private
settings so the user's are neither read nor written). Without ``--db`` the demo database is generated
first (``python -m core demo --out OUT/demo.sqlite --messages 3000 --seed 7``). ``OUT/index.html``
shows the tabs as rows and the combinations as columns. The exit status is 1 when a run failed.
"""

from __future__ import annotations

import argparse
import html
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "zh_CN")
THEMES = ("light", "dark")


def make_demo(path: Path, messages: int, seed: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "core", "demo", "--out", str(path), "--messages", str(messages)]
    cmd += ["--seed", str(seed)]
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def shoot(db: Path, out: Path, lang: str, theme: str, settings_dir: Path, timeout: float) -> tuple[int, str]:
    """One combination; returns (exit status, stderr)."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["PHILONT_DESKTOP_SETTINGS_DIR"] = str(settings_dir)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    cmd = [sys.executable, "-m", "philont_desktop", "--db", str(db), "--screenshot", str(out)]
    cmd += ["--theme", theme, "--lang", lang]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 1, f"timed out after {timeout:.0f} s"
    noise = ("propagateSizeHints",)
    err = "\n".join(line for line in proc.stderr.splitlines() if not any(n in line for n in noise))
    return proc.returncode, err


def write_index(out: Path, combos: list[str]) -> Path:
    tabs: list[str] = []
    for combo in combos:
        for png in sorted((out / combo).glob("*.png")):
            if png.stem not in tabs:
                tabs.append(png.stem)
    order = ["timeline", "actions", "notes", "facts", "skills", "context", "calendar", "backups", "audit"]
    tabs.sort(key=lambda t: (order.index(t) if t in order else len(order), t))
    head = "".join(f"<th>{html.escape(c)}</th>" for c in combos)
    rows = []
    for tab in tabs:
        cells = []
        for combo in combos:
            rel = f"{combo}/{tab}.png"
            if (out / rel).is_file():
                cells.append(f'<td><a href="{rel}"><img src="{rel}" loading="lazy"></a></td>')
            else:
                cells.append("<td>—</td>")
        rows.append(f"<tr><th>{html.escape(tab)}</th>{''.join(cells)}</tr>")
    page = (
        "<!doctype html><meta charset='utf-8'><title>philont-desktop screenshots</title>"
        "<style>body{font-family:sans-serif} img{width:100%;border:1px solid #888} "
        "td{vertical-align:top;width:25%} th{text-align:left}</style>"
        f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>"
    )
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=str(ROOT / "screenshots"), help="folder for the pictures")
    p.add_argument("--db", help="database to show (default: a generated demo database)")
    p.add_argument("--messages", type=int, default=3000, help="demo size (default 3000)")
    p.add_argument("--seed", type=int, default=7, help="demo seed (default 7)")
    p.add_argument("--langs", nargs="+", default=list(LANGS), choices=LANGS)
    p.add_argument("--themes", nargs="+", default=list(THEMES), choices=("light", "dark", "system"))
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per combination")
    args = p.parse_args(argv)

    out = Path(args.out).expanduser().resolve()
    out.mkdir(parents=True, exist_ok=True)
    db = Path(args.db).expanduser().resolve() if args.db else out / "demo.sqlite"
    if not args.db and not db.exists():
        print(f"generating the demo database {db}")
        make_demo(db, args.messages, args.seed)
    failures = 0
    combos = []
    with tempfile.TemporaryDirectory(prefix="philont-shots-") as settings:
        for lang in args.langs:
            for theme in args.themes:
                combo = f"{lang}-{theme}"
                combos.append(combo)
                started = time.monotonic()
                code, err = shoot(db, out / combo, lang, theme, Path(settings), args.timeout)
                took = time.monotonic() - started
                n = len(list((out / combo).glob("*.png")))
                print(f"{combo}: {n} pictures in {took:.1f} s" + ("" if code == 0 else f" (exit {code})"))
                if err.strip():
                    print(err.strip(), file=sys.stderr)
                failures += code != 0
    print(write_index(out, combos))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
