#!/usr/bin/env python3
"""Regenerates the seed corpus of fuzz_changes (tests/fuzz/corpus/fuzz_changes/)
with the native CLI: edits of the world `juliet gen DIR --count 64` makes
(the world the target applies to, so the seeds' prints match it), each
turned into a change link by `juliet share --changes` and written as the
link's inflated bytes. Run after building build/native:

    python3 tests/fuzz/make_changes_corpus.py

Crash reproducers added by hand (regression-*) are left alone.
"""
import base64
import os
import re
import shutil
import subprocess
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(ROOT, "build", "native", "juliet")
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus", "fuzz_changes")


def entity_files(world):
    d = os.path.join(world, "Entities")
    return [os.path.join(d, n) for n in sorted(os.listdir(d))]


def set_key(path, key, value):
    with open(path) as f:
        text = f.read()
    text = re.sub(r"; %s\n.*\n" % key, "; %s\n%s\n" % (key, value), text, count=1)
    with open(path, "w") as f:
        f.write(text)


def moved(world):
    set_key(entity_files(world)[0], "position", "1.5 2 -3")


def many(world):
    for i, path in enumerate(entity_files(world)[:20]):
        set_key(path, "position", "%d 0.25 -%d" % (i, i))


def deleted(world):
    for path in entity_files(world)[3:6]:
        os.remove(path)


def added(world):
    files = entity_files(world)
    with open(files[0]) as f:
        text = f.read()
    new_id = 0x211FEC3300000999
    text = re.sub(r"; id\n.*\n", "; id\n0x%016x\n" % new_id, text, count=1)
    with open(os.path.join(world, "Entities", "%d.jasset" % new_id), "w") as f:
        f.write(text)


def settings(world):
    set_key(os.path.join(world, "WorldSettings.jasset"), "time_of_day", "20")


def everything(world):
    moved(world)
    deleted(world)
    added(world)
    settings(world)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if not name.startswith("regression-"):
            os.remove(os.path.join(OUT, name))
    with tempfile.TemporaryDirectory() as tmp:
        old = os.path.join(tmp, "old", "level")
        os.makedirs(os.path.dirname(old))
        subprocess.run([CLI, "gen", old, "--count", "64"], check=True, capture_output=True)
        for edit in (moved, many, deleted, added, settings, everything):
            new = os.path.join(tmp, edit.__name__, "level")
            shutil.copytree(old, new)
            edit(new)
            link = subprocess.run(
                [CLI, "share", "--changes", old, new, "--base", "https://example.org/"],
                check=True, capture_output=True, text=True,
            ).stdout.strip()
            text = link.split("#", 1)[1]
            packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            with open(os.path.join(OUT, "%s.jlc" % edit.__name__), "wb") as f:
                f.write(zlib.decompress(packed, -15))
    print("fuzz_changes: %d seeds" % len(os.listdir(OUT)))


if __name__ == "__main__":
    main()
