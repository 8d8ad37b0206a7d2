#!/usr/bin/env python3
"""Regenerates the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/)
from the fixtures in assets/. Run from anywhere after the fixtures change:

    python3 tests/fuzz/make_corpus.py

Seeds are named by origin, so a regenerated corpus diffs cleanly. Crash
reproducers added by hand (regression-*) are left alone.

  fuzz_entity_file  every .jasset file under assets/ (sample, compat, malformed)
  fuzz_world_dir    whole worlds in the target's bundle format ("%% path"
                    headers, see fuzz_world_dir.c): the sample world, each
                    malformed world, each compat file in a world, and worlds
                    with the directory-level oddities (leftover temporaries,
                    a directory named like a file, a symlink loop, an
                    unreadable file, no Entities directory)
  fuzz_snapshot     every .jsnap and .link under assets/snapshots/
  fuzz_values       one value text per field type (the first byte picks the
                    field of the target's table), valid and refused ones
  fuzz_class_file   every .jclass file under assets/, and a few refused ones

fuzz_changes's seeds are edits of a generated world, made by the native CLI:
tests/fuzz/make_changes_corpus.py.
"""
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASSETS = os.path.join(ROOT, "assets")
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def reset(target):
    path = os.path.join(CORPUS, target)
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if not name.startswith("regression-"):
            os.remove(os.path.join(path, name))
    return path


def files_under(top, suffixes):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            # Regular files only: assets/malformed/catalogue has a symlink loop.
            if name.endswith(suffixes) and os.path.isfile(path):
                yield path


def seed_name(path):
    rel = os.path.relpath(path, ASSETS)
    return re.sub(r"[^A-Za-z0-9_.-]", "_", rel.replace(os.sep, "--"))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def bundle(entries):
    """entries: (header, bytes or None) pairs -> the fuzz_world_dir input."""
    out = b""
    for header, body in entries:
        out += b"%% " + header.encode() + b"\n"
        if body is not None:
            out += body + b"\n"  # the closing line end is not part of the file
    return out


def world_entries(world_dir):
    entries = []
    settings = os.path.join(world_dir, "WorldSettings.jasset")
    if os.path.exists(settings):
        entries.append(("WorldSettings.jasset", read(settings)))
    ent = os.path.join(world_dir, "Entities")
    if os.path.isdir(ent):
        for name in sorted(os.listdir(ent)):
            entries.append(("Entities/" + name, read(os.path.join(ent, name))))
    return entries


def decimal_name(text):
    m = re.search(rb"^; id\r?\n\s*0x([0-9a-fA-F]{1,16})", text, re.M)
    return "%d.jasset" % int(m.group(1), 16) if m else "1.jasset"


def main():
    # One entity file.
    out = reset("fuzz_entity_file")
    n = 0
    for path in files_under(ASSETS, (".jasset",)):
        data = read(path)
        if len(data) > 64 * 1024:
            continue
        with open(os.path.join(out, seed_name(path)), "wb") as f:
            f.write(data)
        n += 1
    print("fuzz_entity_file: %d seeds" % n)

    # Whole worlds.
    out = reset("fuzz_world_dir")
    worlds = {"sample_world": world_entries(os.path.join(ASSETS, "sample_world"))}
    malformed_worlds = os.path.join(ASSETS, "malformed", "worlds")
    if os.path.isdir(malformed_worlds):
        for name in sorted(os.listdir(malformed_worlds)):
            worlds["malformed_" + name] = world_entries(os.path.join(malformed_worlds, name))
    for path in files_under(os.path.join(ASSETS, "compat"), (".jasset",)):
        data = read(path)
        worlds["compat_" + os.path.basename(path)[:-7]] = [("Entities/" + decimal_name(data), data)]
    sample = worlds["sample_world"]
    first_entity = next(body for header, body in sample if header.startswith("Entities/"))
    first_name = decimal_name(first_entity)
    worlds["leftover_temporaries"] = sample[:4] + [
        ("Entities/" + first_name + ".tmp", first_entity[: len(first_entity) // 2]),
        ("WorldSettings.jasset.tmp", b"; version\n"),
    ]
    worlds["directory_named_like_a_file"] = sample[:3] + [("Entities/12345.jasset/", None)]
    worlds["symlink_loop"] = sample[:3] + [("~Entities/777.jasset", None)]
    worlds["unreadable_file"] = sample[:3] + [("!Entities/" + first_name, first_entity)]
    worlds["settings_only"] = sample[:1]
    worlds["entities_is_a_file"] = sample[:1] + [("Entities", b"not a directory\n")]
    for name, entries in sorted(worlds.items()):
        with open(os.path.join(out, name + ".world"), "wb") as f:
            f.write(bundle(entries))
    print("fuzz_world_dir: %d seeds" % len(worlds))

    # Snapshots.
    out = reset("fuzz_snapshot")
    n = 0
    for path in files_under(os.path.join(ASSETS, "snapshots"), (".jsnap", ".link")):
        if os.path.getsize(path) > 16 * 1024:
            continue  # the expansion bomb: replayed from assets/, too big to mutate well
        shutil.copyfile(path, os.path.join(out, seed_name(path)))
        n += 1
    print("fuzz_snapshot: %d seeds" % n)

    # Single values: (index in fuzz_values.c's field table, text).
    out = reset("fuzz_values")
    values = {
        "f32": (0, b"-12.5e-3"), "f32_inf": (1, b"-inf"), "index": (2, b"none"), "bool": (3, b"true"),
        "vec3": (4, b"1  -2.5\t3e2"), "color": (5, b"#A0b1c2"), "entity_ref": (6, b"0x00000001000000ff"),
        "i32": (7, b"-2147483648"), "u32": (8, b"4294967295"), "string": (9, b"Grunt the Second"),
        "string_quoted": (9, b'" a \\"b\\" \\\\c "'), "string_empty": (9, b'""'),
        "string_utf8": (9, "caf\u00e9 \u2713 \U0001f600".encode()), "string_bad": (9, b"a\xc0\x80"),
        "enum": (10, b"green"), "enum_bad": (10, b"purple"), "vec2": (11, b"0.5 -1"), "quat": (12, b"0 0 0 1"),
    }
    for name, (field, text) in sorted(values.items()):
        with open(os.path.join(out, name + ".value"), "wb") as f:
            f.write(bytes([field]) + text)
    print("fuzz_values: %d seeds" % len(values))

    # Class files: the fixtures', and refused ones the reader must name.
    out = reset("fuzz_class_file")
    classes = {seed_name(path): read(path) for path in files_under(ASSETS, (".jclass",))}
    classes.update({
        "bad_type.jclass": b"; asset_type\nclass\n; name\nOdd\n; class_version\n1\n; field x\nf64 0\n",
        "enum_default_not_a_name.jclass":
            b"; asset_type\nclass\n; name\nOdd\n; class_version\n1\n; field team\nenum purple red blue\n",
        "compiled_prop_disagrees.jclass": b"; asset_type\nclass\n; name\nProp\n; class_version\n1\n; field mass\nf32 3\n",
    })
    for name, data in sorted(classes.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("fuzz_class_file: %d seeds" % len(classes))


if __name__ == "__main__":
    main()
