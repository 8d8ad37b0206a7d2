#!/usr/bin/env python3
"""Regenerates the snapshot fixtures of this directory (see README.md).

usage: make_fixtures.py JULIET_CLI

Valid fixtures come from `juliet share` on assets/sample_world and on an empty
world; hostile ones are edits of them or short hand-built streams, each with
its CRC fixed so the decoder reaches the check it is meant for. Run it again
whenever the snapshot format or a class's fields change.
"""
import base64
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ASSETS = os.path.dirname(HERE)
BASE = "http://localhost:5173/"


def share(cli, world_dir):
    out = subprocess.run([cli, "share", world_dir, "--base", BASE], check=True,
                         capture_output=True, text=True).stdout.strip()
    return out


def b64(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def inflate(data):
    return zlib.decompressobj(-15).decompress(data)


def with_crc(body):
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def read_varint(data, at):
    v = shift = 0
    while True:
        b = data[at]
        at += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, at


def class_table(snap):
    """(name CRC, version, field CRC, count, start, end) of each class entry."""
    count, at = read_varint(snap, 5)
    entries = []
    for _ in range(count):
        start = at
        crc, = struct.unpack_from("<I", snap, at)
        version, at = read_varint(snap, at + 4)
        schema, = struct.unpack_from("<I", snap, at)
        n, at = read_varint(snap, at + 4)
        entries.append((crc, version, schema, n, start, at))
    return entries


INERT_CRC = 0x4C45EA8F


def inert_stream(count, body):
    """Manager-only stream with one Inert class entry, then body, then CRC."""
    crc, version, schema, _, _, _ = next(e for e in class_table(SAMPLE) if e[0] == INERT_CRC)
    head = b"JLW\x01" + varint(0) + varint(1) + struct.pack("<I", crc) + varint(version)
    head += struct.pack("<I", schema) + varint(count)
    return with_crc(head + body)


CONST0 = varint(0) + b"\x00"            # integer column: every value 0
FLOAT0 = b"\x00" + varint(0) + varint(0) + b"\x00" + varint(0)  # decimal column of zeros


def write(path, data, text=False):
    mode = "w" if text else "wb"
    with open(os.path.join(HERE, path), mode) as f:
        f.write(data)


def main():
    global SAMPLE
    cli = sys.argv[1]
    os.makedirs(os.path.join(HERE, "valid"), exist_ok=True)
    os.makedirs(os.path.join(HERE, "hostile"), exist_ok=True)

    sample_link = share(cli, os.path.join(ASSETS, "sample_world"))
    SAMPLE = inflate(unb64(sample_link.split("#", 1)[1]))
    write("valid/sample_world.link", sample_link + "\n", text=True)
    write("valid/sample_world.jsnap", SAMPLE)
    with tempfile.TemporaryDirectory() as empty:
        empty_link = share(cli, empty)
    write("valid/empty_world.link", empty_link + "\n", text=True)
    write("valid/empty_world.jsnap", inflate(unb64(empty_link.split("#", 1)[1])))

    body = SAMPLE[:-4]
    write("hostile/bad_magic.jsnap", b"X" + SAMPLE[1:])
    write("hostile/newer_version.jsnap", with_crc(body[:3] + b"\x02" + body[4:]))
    write("hostile/unknown_flags.jsnap", with_crc(body[:4] + b"\x09" + body[5:]))
    # The CRC is checked before any content, so these two carry a right one.
    write("hostile/truncated.jsnap", with_crc(body[: len(body) // 2]))
    write("hostile/trailing_bytes.jsnap", with_crc(body + b"\x00"))
    write("hostile/bad_checksum.jsnap", SAMPLE[:-1] + bytes([SAMPLE[-1] ^ 1]))
    first = class_table(SAMPLE)[0]
    write("hostile/unknown_class.jsnap",
          with_crc(body[: first[4]] + b"\xff\xff\xff\xff" + body[first[4] + 4:]))

    positions = FLOAT0 * 3
    write("hostile/id_zero.jsnap", inert_stream(1, varint(0) + CONST0 + positions + CONST0 + CONST0))
    write("hostile/id_wraps.jsnap",
          inert_stream(2, varint(5) + varint(2**64 - 1) + CONST0 + positions + CONST0 + CONST0))
    write("hostile/class_index_out_of_range.jsnap", inert_stream(1, varint(5) + varint(1) + b"\x00"))
    write("hostile/nan_position.jsnap",
          inert_stream(1, varint(5) + CONST0 + b"\x01" + varint(0x7FC00000) + b"\x00"))
    write("hostile/infinite_position.jsnap",
          inert_stream(1, varint(5) + CONST0 + b"\x00" + varint(0) + varint(0) + b"\x00" + varint(1)
                       + varint(0) + struct.pack("<I", 0x7F800000)))
    write("hostile/exponent_out_of_range.jsnap",
          inert_stream(1, varint(5) + CONST0 + b"\x00" + varint(46) + varint(0) + b"\x00" + varint(0)))
    write("hostile/bool_out_of_range.jsnap", bool_out_of_range())
    write("hostile/count_beyond_cap.jsnap", inert_stream((1 << 20) + 1, b""))
    write("hostile/count_beyond_input.jsnap", inert_stream(100000, varint(1)))
    write("hostile/overlong_varint.jsnap", inert_stream(1, b"\x85\x00"))

    payload = unb64(sample_link.split("#", 1)[1])
    write("hostile/expansion_bomb.link", BASE + "#" + b64(deflate(b"\0" * ((64 << 20) + 1))) + "\n", text=True)
    cut = sample_link[: len(BASE) + 1 + (len(sample_link) - len(BASE) - 1) // 2 // 4 * 4]
    write("hostile/cut_off.link", cut + "\n", text=True)
    write("hostile/bytes_after_deflate.link", BASE + "#" + b64(payload + b"\x00\x00\x00") + "\n", text=True)
    write("hostile/not_deflate.link", BASE + "#____\n", text=True)
    text = sample_link.split("#", 1)[1]
    write("hostile/bad_character.link", BASE + "#" + text[:10] + "+" + text[11:] + "\n", text=True)
    cut = len(payload) - (len(payload) % 3) - 2  # leaves one byte over: two '=' of padding
    write("hostile/padding.link",
          BASE + "#" + base64.urlsafe_b64encode(payload[:cut]).decode() + "\n", text=True)


def bool_out_of_range():
    """A Light whose cast_shadows (the last column) is 2."""
    entry = next(e for e in class_table(SAMPLE) if e[0] == 0xAADB73F3)
    head = b"JLW\x01" + varint(0) + varint(1) + SAMPLE[entry[4]:entry[5] - len(varint(entry[3]))]
    head += varint(1)
    body = varint(5) + CONST0 + FLOAT0 * 3 + CONST0
    body += varint(0xFFFFFF) + b"\x00"        # color
    body += FLOAT0 + FLOAT0                   # intensity, radius
    body += varint(2) + b"\x00"               # cast_shadows = 2
    return with_crc(head + body)


if __name__ == "__main__":
    main()
