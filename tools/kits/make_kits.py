#!/usr/bin/env python3
"""Builds the CodinGame kits: one Rust source file per kit, sliced from the gridbits library.

CodinGame compiles one source file of at most 100,000 characters with no crates, and the
library is about a megabyte of source. A kit is one crate in one file whose root is the
library's `lib.rs` as the module `gridbits`, with the modules the kit's manifest
(tools/kits/manifests/<kit>.txt) names inlined as `mod name { ... }` (nested as in the crate;
`crate::` becomes `crate::gridbits::`, so every path resolves unchanged), followed by the
kit's bot (tools/kits/bots/<kit>.rs: a `main` that plays one CodinGame game, written against
`gridbits::...` as against the crate). Slicing, in order:

1. Per file: comments and doc attributes go; `cfg` attributes are evaluated for a plain
   `rustc --edition 2021` build on a target that is not x86 (no features, no `test`, no
   `doc`, no x86 intrinsics: the portable code paths, which the library tests on every
   target), so `#[cfg(test)]` modules, `#[test]` functions, the `parallel` and `serde`
   features and the SIMD paths drop out; `mod x;` of a module the manifest does not list
   drops out.
2. For the whole kit: rustc (`--error-format=json`) is the judge. Every item (module item,
   impl or trait member, `use` leaf) that fails to resolve because its module was left out,
   that the dead-code lint finds unreachable from the bot's `main`, or an import found unused,
   is dropped, and the kit is checked again, until rustc reports nothing.
3. rustc never calls a trait impl dead: the trait impls are tried, by halves, and those the
   kit compiles without are dropped; then step 2 again.
What was dropped (and the trait impls found needed) is remembered in
`tools/kits/drops/<kit>.txt`, a cache: the next run starts from it and needs one rustc check
when nothing changed. Without it the result is the same, only slower (minutes).

Usage: tools/kits/make_kits.py [--check] [--out DIR] [KIT ...]
  --check   generate in memory and fail if a committed kit (kits/<kit>.rs) differs, or is
            100,000 characters or more; writes nothing.
  KITS_VERBOSE=1 lists every item dropped.
Python 3 standard library only; needs `rustc` on PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "crates", "gridbits", "src")
KITS_DIR = os.path.join(ROOT, "tools", "kits")
LIMIT = 100_000
KITS = ["territory", "puyo", "amazons", "tetris"]

# ---------------------------------------------------------------------------------------------
# Tokens


@dataclass
class Tok:
    kind: str  # "id", "lit", "life", "p" (one punctuation character)
    text: str
    ws: str  # whitespace before it in the source: "", " " or "\n"


WORDY = ("id", "lit", "life")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def tokenize(src: str) -> list[Tok]:
    """Rust tokens without comments; each remembers whether whitespace (or a comment) and a
    line break stood before it."""
    toks: list[Tok] = []
    i, n, ws = 0, len(src), ""

    def string_end(j: int) -> int:  # j at the opening quote
        j += 1
        while src[j] != '"':
            j += 2 if src[j] == "\\" else 1
        return j + 1

    while i < n:
        c = src[i]
        if c in " \t\r\n":
            ws = "\n" if c == "\n" or ws == "\n" else " "
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            ws = ws or " "
            continue
        if src.startswith("/*", i):
            depth, i = 1, i + 2
            while depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            ws = ws or " "
            continue
        start = i
        kind = "p"
        m = IDENT.match(src, i)
        if m:
            word = m.group()
            j = m.end()
            if word in ("r", "br", "cr") and j < n and src[j] in '#"':
                k = j
                while k < n and src[k] == "#":
                    k += 1
                if k < n and src[k] == '"':
                    hashes = k - j
                    end = src.index('"' + "#" * hashes, k + 1) + 1 + hashes
                    kind, i = "lit", end
                elif word == "r":  # a raw identifier r#name
                    m2 = IDENT.match(src, j + 1)
                    kind, i = "id", m2.end()
                else:
                    kind, i = "id", j
            elif word in ("b", "c") and j < n and src[j] == '"':
                kind, i = "lit", string_end(j)
            elif word == "b" and j < n and src[j] == "'":
                k = j + 1
                k += 2 if src[k] == "\\" else 1
                while src[k] != "'":
                    k += 1
                kind, i = "lit", k + 1
            else:
                kind, i = "id", j
        elif c.isdigit():
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            if j + 1 < n and src[j] == "." and src[j + 1].isdigit():
                j += 1
                while j < n and (src[j].isalnum() or src[j] == "_"):
                    j += 1
            kind, i = "lit", j
        elif c == '"':
            kind, i = "lit", string_end(i)
        elif c == "'":
            if src[i + 1] == "\\":
                k = i + 3
                while src[k] != "'":
                    k += 1
                kind, i = "lit", k + 1
            elif i + 2 < n and src[i + 2] == "'":
                kind, i = "lit", i + 3
            else:
                m2 = IDENT.match(src, i + 1)
                kind, i = "life", m2.end()
        else:
            i += 1
        toks.append(Tok(kind, src[start:i], ws))
        ws = ""
    return toks


OPEN, CLOSE = "([{", ")]}"


def match_close(toks: list[Tok], i: int) -> int:
    """Index of the delimiter closing the one at i."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind == "p":
            if t.text in OPEN:
                depth += 1
            elif t.text in CLOSE:
                depth -= 1
                if depth == 0:
                    return j
    raise ValueError("unbalanced delimiters")


def split_commas(toks: list[Tok], lo: int, hi: int) -> list[tuple[int, int]]:
    parts, start, j = [], lo, lo
    while j < hi:
        t = toks[j]
        if t.kind == "p" and t.text in OPEN:
            j = match_close(toks, j) + 1
            continue
        if t.kind == "p" and t.text == ",":
            parts.append((start, j))
            start = j + 1
        j += 1
    if start < hi:
        parts.append((start, hi))
    return parts


# ---------------------------------------------------------------------------------------------
# cfg: a plain rustc build for a target that is not x86, no features, not a test.


def eval_cfg(toks: list[Tok], lo: int, hi: int):
    """True, False or None (unknown: the attribute stays)."""
    if hi <= lo:
        return None
    head = toks[lo].text
    if toks[lo].kind == "id" and lo + 1 < hi and toks[lo + 1].text == "(":
        close = match_close(toks, lo + 1)
        args = [eval_cfg(toks, a, b) for a, b in split_commas(toks, lo + 2, close)]
        if head == "not":
            return None if args[0] is None else not args[0]
        if head == "all":
            if any(a is False for a in args):
                return False
            return True if all(a is True for a in args) else None
        if head == "any":
            if any(a is True for a in args):
                return True
            return False if all(a is False for a in args) else None
        return None
    if hi - lo == 1:
        return False if head in ("test", "doc", "doctest", "miri", "gridbits_workspace") else None
    if hi - lo == 3 and toks[lo + 1].text == "=":
        value = toks[lo + 2].text.strip('"')
        if head == "feature":
            return False
        if head == "target_arch":
            return False if value in ("x86", "x86_64") else None
        if head == "target_feature":
            return False
    return None


# ---------------------------------------------------------------------------------------------
# Output with the spans of the droppable items


class Out:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.prev: Tok | None = None
        self.spans: list[tuple[int, int, str]] = []  # (start, end, key) in characters

    def raw(self, s: str) -> None:
        self.parts.append(s)
        self.size += len(s)
        self.prev = None

    def tok(self, t: Tok) -> None:
        p = self.prev
        if p is None and t.ws == "\n" and self.parts and not self.parts[-1].endswith("\n"):
            self.raw("\n")
        elif p is not None and t.ws:
            if t.ws == "\n":
                self.raw("\n")
            elif (p.kind in WORDY) == (t.kind in WORDY):
                self.raw(" ")
        elif p is not None and p.kind in WORDY and t.kind in WORDY:
            self.raw(" ")
        self.parts.append(t.text)
        self.size += len(t.text)
        self.prev = t

    def text(self) -> str:
        return "".join(self.parts)

    def mark(self):
        return len(self.parts), self.size, self.prev, len(self.spans)

    def reset(self, mark) -> None:
        """Back to `mark`: what was written since goes."""
        n, self.size, self.prev, spans = mark
        del self.parts[n:]
        del self.spans[spans:]


# ---------------------------------------------------------------------------------------------
# Slicing one module


@dataclass
class Kit:
    name: str
    modules: set[str]  # module paths ("board", "algo::fill", ...) with every ancestor
    drops: set[str] = field(default_factory=set)
    used_drops: set[str] = field(default_factory=set)


def all_modules() -> set[str]:
    found = set()
    for dirpath, _, files in os.walk(SRC):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), SRC)[:-3]
            if rel == "lib":
                continue
            parts = rel.split(os.sep)
            if parts[-1] == "mod":
                parts = parts[:-1]
            found.add("::".join(parts))
    return found


ITEM_KEYWORDS = {
    "fn", "struct", "enum", "union", "trait", "impl", "mod", "use", "type", "const", "static",
    "macro_rules", "extern",
}
QUALIFIERS = {"pub", "const", "async", "unsafe", "default", "extern", "auto"}


class Slicer:
    def __init__(self, kit: Kit) -> None:
        self.kit = kit
        self.out = Out()
        self.seen: dict[str, int] = {}

    # --- attributes

    def read_attrs(self, toks, i, hi):
        """Outer attributes from i: [(lo, hi, inner)] and the index after them."""
        attrs = []
        while i + 1 < hi and toks[i].text == "#" and toks[i + 1].text in ("[", "!"):
            inner = toks[i + 1].text == "!"
            open_ = i + 2 if inner else i + 1
            if open_ >= hi or toks[open_].text != "[":
                break
            close = match_close(toks, open_)
            attrs.append((i, close + 1, inner))
            i = close + 1
        return attrs, i

    def judge_attrs(self, toks, attrs):
        """None when the item is compiled out; else the attribute texts to keep."""
        kept: list[list[Tok]] = []
        for lo, hi, inner in attrs:
            body_lo = lo + (3 if inner else 2)
            body_hi = hi - 1
            name = toks[body_lo].text
            if name == "doc":
                continue
            if name in ("test", "bench"):
                return None
            if inner and name in ("warn", "deny", "forbid"):
                continue
            if name == "cfg":
                v = eval_cfg(toks, body_lo + 2, body_hi - 1)
                if v is False:
                    return None
                if v is True:
                    continue
            elif name == "cfg_attr":
                parts = split_commas(toks, body_lo + 2, body_hi - 1)
                v = eval_cfg(toks, *parts[0])
                if v is False:
                    continue
                if v is True:
                    for a, b in parts[1:]:
                        if toks[a].text == "doc":
                            continue
                        hash_ = [Tok("p", "#", "\n"), Tok("p", "!", "")] if inner else [Tok("p", "#", "\n")]
                        kept.append(hash_ + [Tok("p", "[", "")] + toks[a:b] + [Tok("p", "]", "")])
                    continue
            kept.append(toks[lo:hi])
        return kept

    # --- generic token ranges (bodies): cfg attributes on statements, fields, arms

    def element_end(self, toks, i, hi):
        j = i
        while j < hi:
            t = toks[j]
            if t.kind == "p":
                if t.text in OPEN:
                    close = match_close(toks, j)
                    if t.text == "{":
                        nxt = toks[close + 1].text if close + 1 < hi else ""
                        if nxt in (";", ","):
                            return close + 2
                        if nxt in ("else", ".", "?", "=>", "=", "as") or nxt in "+-*/%&|^<>":
                            j = close + 1
                            continue
                        if toks[i].text in ("let", "const", "static"):
                            j = close + 1
                            continue
                        return close + 1
                    j = close + 1
                    continue
                if t.text in CLOSE:
                    return j
                if t.text in (";", ","):
                    return j + 1
            j += 1
        return hi

    def emit_range(self, toks, lo, hi):
        i = lo
        while i < hi:
            t = toks[i]
            if t.text == "#" and i + 1 < hi and toks[i + 1].text in ("[", "!"):
                attrs, j = self.read_attrs(toks, i, hi)
                if attrs:
                    kept = self.judge_attrs(toks, attrs)
                    if kept is None:
                        i = self.element_end(toks, j, hi)
                        continue
                    for a in kept:
                        for x in a:
                            self.out.tok(x)
                    i = j
                    continue
            self.out.tok(t)
            i += 1

    # --- items

    def item_end(self, toks, i, hi):
        k = i
        if toks[k].text == "pub":
            k += 1
            if toks[k].text == "(":
                k = match_close(toks, k) + 1
        const_like = toks[k].text in ("static",) or (
            toks[k].text == "const" and toks[k + 1].text not in ("fn", "unsafe", "async", "extern")
        )
        j = i
        while j < hi:
            t = toks[j]
            if t.kind == "p":
                if t.text in OPEN:
                    close = match_close(toks, j)
                    if t.text == "{" and not const_like:
                        if close + 1 < hi and toks[close + 1].text == ";":
                            return close + 2, close
                        return close + 1, close
                    j = close + 1
                    continue
                if t.text == ";":
                    return j + 1, None
            j += 1
        raise ValueError("item without end")

    def header(self, toks, lo, hi):
        words = []
        for j in range(lo, hi):
            if toks[j].text in ("{", ";") or (toks[j].text == "=" and toks[j + 1].text != ">"):
                break
            t = toks[j]
            if words and t.kind in WORDY and toks[j - 1].kind in WORDY:
                words.append(" ")
            words.append(t.text)
        return "".join(words)[:160]

    def key(self, scope, head):
        base = f"{scope} | {head}"
        n = self.seen.get(base, 0)
        self.seen[base] = n + 1
        return base if n == 0 else f"{base} #{n}"

    def emit_items(self, toks, lo, hi, modpath, scope, moddir):
        """Items of a module (or of an impl / trait body when moddir is None)."""
        i = lo
        # Inner attributes at the top of the block.
        attrs, _ = self.read_attrs(toks, i, hi)
        if attrs and attrs[0][2]:
            n_inner = 0
            for a in attrs:
                if not a[2]:
                    break
                n_inner += 1
            kept = self.judge_attrs(toks, attrs[:n_inner])
            if kept:
                for a in kept:
                    for x in a:
                        self.out.tok(x)
            i = attrs[n_inner - 1][1]
        while i < hi:
            attrs, start = self.read_attrs(toks, i, hi)
            if start >= hi:
                break
            if toks[start].text == ";":
                i = start + 1
                continue
            end, body_close = self.item_end(toks, start, hi)
            i = end
            kept = self.judge_attrs(toks, attrs)
            if kept is None:
                continue
            self.emit_item(toks, start, end, body_close, kept, modpath, scope, moddir)

    def emit_item(self, toks, start, end, body_close, kept, modpath, scope, moddir):
        k = start
        vis_end = start
        if toks[k].text == "pub":
            k += 1
            if toks[k].text == "(":
                k = match_close(toks, k) + 1
            vis_end = k
        while toks[k].text in QUALIFIERS and toks[k + 1].text not in ("{", "!"):
            if toks[k].text == "extern" and toks[k + 1].kind == "lit":
                k += 1
            if toks[k].text == "const" and toks[k + 1].kind == "id" and toks[k + 1].text not in ITEM_KEYWORDS:
                break
            k += 1
        kw = toks[k].text
        head = self.header(toks, start, end)
        key = self.key(scope, head)
        if kw == "mod" and toks[k + 2].text == ";":
            name = toks[k + 1].text
            sub = f"{modpath}::{name}" if modpath else name
            if sub not in self.kit.modules:
                return
            if key in self.kit.drops:
                self.kit.used_drops.add(key)
                return
            f = self.child_file(moddir, name)
            mark = self.out.mark()
            s0 = self.out.size
            self.write_attrs(kept)
            for t in toks[start:k + 2]:
                self.out.tok(t)
            self.out.raw("{\n")
            body = self.out.size
            self.emit_file(f, sub)
            if self.out.size == body:  # nothing left in it: no module either
                self.out.reset(mark)
                return
            self.out.raw("\n}")
            self.out.spans.append((s0, self.out.size, key))
            return
        if key in self.kit.drops:
            self.kit.used_drops.add(key)
            return
        if kw == "use":
            self.emit_use(toks, start, end, kept, key, scope)
            return
        s0 = self.out.size
        self.write_attrs(kept)
        if kw in ("impl", "trait", "mod") and body_close is not None:
            open_ = self.find_open(toks, start, body_close)
            self.emit_range(toks, start, open_ + 1)
            if kw == "mod":
                name = toks[k + 1].text
                sub = f"{modpath}::{name}" if modpath else name
                self.emit_items(toks, open_ + 1, body_close, sub, sub, None)
            else:
                self.emit_items(toks, open_ + 1, body_close, modpath, key, None)
            self.emit_range(toks, body_close, end)
        else:
            self.emit_range(toks, start, end)
        self.out.spans.append((s0, self.out.size, key))

    def find_open(self, toks, start, body_close):
        depth = 0
        for j in range(body_close - 1, start - 1, -1):
            t = toks[j].text
            if t == "}":
                depth += 1
            elif t == "{":
                if depth == 0:
                    return j
                depth -= 1
        raise ValueError("no body")

    def write_attrs(self, kept):
        for a in kept:
            for x in a:
                self.out.tok(x)

    # --- use trees: every leaf can be dropped on its own

    def emit_use(self, toks, start, end, kept, key, scope):
        k = start
        while toks[k].text != "use":
            k += 1
        tree_lo, tree_hi = k + 1, end - 1  # without the ';'

        def render(lo, hi, prefix):
            """The tree in toks[lo:hi] as text, or None when every leaf is dropped."""
            # Find a '{' group at depth 0.
            j = lo
            while j < hi and toks[j].text != "{":
                j += 1
            path = "".join(t.text if t.kind == "p" else (" " + t.text + " ") for t in toks[lo:j])
            path = re.sub(r"\s+", " ", path).strip().replace(" ::", "::").replace(":: ", "::")
            if j == hi:
                leaf = f"{scope} | use {prefix}{path}"
                if leaf in self.kit.drops:
                    self.kit.used_drops.add(leaf)
                    return None
                return [(path, leaf)]
            close = match_close(toks, j)
            kids = []
            for a, b in split_commas(toks, j + 1, close):
                r = render(a, b, prefix + path)
                if r is not None:
                    kids.append(r)
            if not kids:
                return None
            return [(path, None), kids]

        tree = render(tree_lo, tree_hi, "")
        if tree is None:
            return
        s0 = self.out.size
        self.write_attrs(kept)
        for t in toks[start:k + 1]:
            self.out.tok(t)
        self.out.raw(" ")

        def write(node):
            if len(node) == 1:  # leaf
                path, leaf = node[0]
                a = self.out.size
                self.out.raw(path)
                self.out.spans.append((a, self.out.size, leaf))
                return
            (path, _), kids = node
            self.out.raw(path + "{")
            for n, kid in enumerate(kids):
                if n:
                    self.out.raw(",")
                write(kid)
            self.out.raw("}")

        write(tree)
        self.out.raw(";")
        self.out.spans.append((s0, self.out.size, key))

    # --- files

    def child_file(self, moddir, name):
        for cand in (os.path.join(moddir, name + ".rs"), os.path.join(moddir, name, "mod.rs")):
            if os.path.exists(cand):
                return cand
        raise FileNotFoundError(f"module {name} in {moddir}")

    def emit_file(self, path, modpath):
        with open(path, encoding="utf-8") as f:
            toks = in_module(tokenize(f.read()))
        base = os.path.basename(path)
        moddir = os.path.dirname(path) if base in ("mod.rs", "lib.rs") else path[:-3]
        self.emit_items(toks, 0, len(toks), modpath, modpath or "crate", moddir)


def in_module(toks: list[Tok]) -> list[Tok]:
    """`crate::x` (and `$crate::x`) as `crate::gridbits::x`: the library is the kit's module
    `gridbits`, so the bot's `use gridbits::...` reads as it does against the crate."""
    out: list[Tok] = []
    for n, t in enumerate(toks):
        out.append(t)
        if (t.kind == "id" and t.text == "crate" and n + 2 < len(toks)
                and toks[n + 1].text == ":" and toks[n + 2].text == ":" and not toks[n + 1].ws):
            out += [Tok("p", ":", ""), Tok("p", ":", ""), Tok("id", "gridbits", "")]
    return out


# ---------------------------------------------------------------------------------------------
# A kit


def read_manifest(name: str) -> tuple[set[str], str]:
    path = os.path.join(KITS_DIR, "manifests", name + ".txt")
    every = all_modules()
    mods: set[str] = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.endswith("::*"):
                base = line[:-3]
                chosen = {m for m in every if m == base or m.startswith(base + "::")}
            else:
                chosen = {line}
            for m in chosen:
                if m not in every:
                    sys.exit(f"{path}: no module {m}")
                parts = m.split("::")
                for n in range(1, len(parts) + 1):
                    mods.add("::".join(parts[:n]))
    bot = os.path.join(KITS_DIR, "bots", name + ".rs")
    return mods, bot


def crate_version() -> str:
    with open(os.path.join(ROOT, "crates", "gridbits", "Cargo.toml"), encoding="utf-8") as f:
        m = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    return m.group(1) if m else "?"


# The kit's one inner attribute: the dead-code lint finds nothing in a generated kit, but a bot
# of your own that uses less of the library would get a warning per unused item.
ALLOW = "#![allow(dead_code)]\n"


def render(kit: Kit, bot_text: str, allow: bool) -> tuple[str, list[tuple[int, int, str]], int]:
    """The kit's text, the spans of its droppable items, and where the bot starts."""
    s = Slicer(kit)
    bot_lines = bot_text.splitlines()
    # The bot's leading // comment block is the kit's header.
    n = 0
    while n < len(bot_lines) and bot_lines[n].startswith("//"):
        n += 1
    header = "\n".join(bot_lines[:n])
    s.out.raw(
        f"{header}\n//\n// Generated by tools/kits/make_kits.py from gridbits {crate_version()}"
        f" (kit `{kit.name}`): the library's\n// modules this bot uses, without comments, tests"
        " and unused items. The bot is at the end.\n"
    )
    if allow:
        s.out.raw(ALLOW)
    s.out.raw("pub mod gridbits {\n")
    s.emit_file(os.path.join(SRC, "lib.rs"), "")
    s.out.raw("\n}\n// ---- the bot (tools/kits/bots/" + kit.name + ".rs) ----\n")
    bot_start = s.out.size
    s.out.raw("\n".join(bot_lines[n:]).strip("\n") + "\n")
    return s.out.text(), s.out.spans, bot_start


def rustc_diagnostics(text: str, tmp: str) -> list[dict]:
    """rustc's diagnostics (JSON) for the kit as a binary crate, without code generation."""
    src = os.path.join(tmp, "kit.rs")
    with open(src, "w", encoding="utf-8") as f:
        f.write(text)
    cmd = ["rustc", "--edition", "2021", "--crate-type", "bin", "--emit=metadata",
           "--error-format=json", "-o", os.path.join(tmp, "kit.rmeta"), src]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit("make_kits.py needs rustc on PATH")
    diags = []
    for line in r.stderr.splitlines():
        try:
            diags.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return diags


# The dead-code warnings that name whole items (not fields or variants, which stay).
DEAD = re.compile(
    r"^(functions?|associated functions?|methods?|constants?|associated constants?|statics?|"
    r"structs?|enums?|type alias(es)?|traits?|unions?|associated items?|macros?|"
    r"associated types?)\b.*\b(is|are) never (used|constructed)"
)


def targets(diag: dict) -> list[int]:
    """Byte offsets in the kit that a diagnostic points at (out of macro expansions, the
    outermost call site)."""
    out = []
    for sp in diag.get("spans", []):
        if not sp.get("is_primary"):
            continue
        s = sp
        while s.get("expansion") and s["expansion"].get("span"):
            s = s["expansion"]["span"]
        out.append(s["byte_start"])
    return out


def actionable(d: dict) -> bool:
    """Whether dropping the item a diagnostic points at is the fix: a resolution or type error
    (they have an error code; a syntax error has none and means the slicer is wrong), an item
    that nothing uses, an unused import."""
    level = d.get("level")
    code = (d.get("code") or {}).get("code", "")
    msg = d.get("message", "")
    if level == "error":
        return bool(code) or msg.startswith("cannot find")
    if level == "warning":
        return (code == "dead_code" and bool(DEAD.match(msg))) or code in ("unused_imports", "unused_macros")
    return False


# Items rustc never calls dead: trait impls, and macros exported at the crate root.
TRAIT_IMPL = re.compile(r"^(impl\b.*\bfor\b|macro_rules!)")
# At most this many rustc checks per kit for the trait impls (the cache makes the next run cheap).
IMPL_BUDGET = 48


class Builder:
    """One kit's generation: the drops learned so far, rustc as the judge."""

    def __init__(self, name: str, tmp: str, verbose: bool) -> None:
        self.name, self.tmp, self.verbose = name, tmp, verbose
        self.mods, bot_path = read_manifest(name)
        with open(bot_path, encoding="utf-8") as f:
            self.bot_text = f.read()
        self.drops_path = os.path.join(KITS_DIR, "drops", name + ".txt")
        self.drops: set[str] = set()
        self.keeps: set[str] = set()
        if os.path.exists(self.drops_path):
            with open(self.drops_path, encoding="utf-8") as f:
                for line in f:
                    line = line.rstrip("\n")
                    if line.startswith("keep: "):
                        self.keeps.add(line[6:])
                    elif line:
                        self.drops.add(line)

    def say(self, text: str, keys=()) -> None:
        if self.verbose:
            print(f"  {self.name}: {text}", file=sys.stderr)
            if os.environ.get("KITS_VERBOSE"):
                for k in sorted(keys):
                    print(f"    - {k}", file=sys.stderr)

    def round(self, drops: set[str]):
        """Renders with `drops`; returns (what rustc asks to drop, whether it reported an error,
        the kit's items)."""
        kit = Kit(self.name, self.mods, set(drops))
        text, spans, bot_start = render(kit, self.bot_text, allow=False)
        raw = text.encode("utf-8")
        new: set[str] = set()
        problems, error = [], False
        for d in rustc_diagnostics(text, self.tmp):
            level, msg = d.get("level"), d.get("message", "")
            error |= level == "error" and not msg.startswith("aborting")
            if level == "error" and not actionable(d) and not msg.startswith("aborting"):
                problems.append(d.get("rendered") or msg)
            if not actionable(d):
                continue
            offs = targets(d)
            if not offs:
                problems.append(d.get("rendered") or msg)
            for b in offs:
                c = len(raw[:b].decode("utf-8", "replace"))
                inner = [sp for sp in spans if sp[0] <= c < sp[1]]
                if c >= bot_start or not inner:
                    problems.append(d.get("rendered") or msg)
                    continue
                # The innermost item. An item dropped from a trait impl makes the impl
                # incomplete (E0046, on the impl): the next round drops the impl.
                new.add(min(inner, key=lambda sp: sp[1] - sp[0])[2])
        return new, problems, error, spans

    def settle(self) -> list[tuple[int, int, str]]:
        """Drops what rustc reports until it reports nothing; the kit's items."""
        for rnd in range(200):
            new, problems, _, spans = self.round(self.drops)
            if problems:
                sys.exit(f"kit {self.name}: rustc reports problems that dropping items cannot fix:\n"
                         + "\n".join(problems[:20]))
            new -= self.drops
            if not new:
                return spans
            self.say(f"round {rnd + 1}: dropping {len(new)} items", new)
            self.drops |= new
        sys.exit(f"kit {self.name}: no fixed point after 200 rounds")

    def prune_impls(self, spans) -> bool:
        """rustc never calls a trait impl (or an exported macro) dead: tries dropping them,
        halves of a group at a time, keeping what the kit still compiles without. Whether any
        went."""
        cands = sorted({k for _, _, k in spans
                        if TRAIT_IMPL.match(k.split(" | ")[-1]) and k not in self.keeps})
        budget = [IMPL_BUDGET]
        gone: set[str] = set()

        def fits(group) -> bool:
            budget[0] -= 1
            _, problems, error, _ = self.round(self.drops | gone | set(group))
            return not error and not problems

        def split(group) -> None:
            if not group or budget[0] <= 0:
                return
            if fits(group):
                gone.update(group)
            elif len(group) == 1:
                self.keeps.add(group[0])
            else:
                half = len(group) // 2
                split(group[:half])
                split(group[half:])

        split(cands)
        if gone:
            self.say(f"dropping {len(gone)} trait impls and macros nothing needs", gone)
        self.drops |= gone
        return bool(gone)

    def build(self) -> tuple[str, Kit]:
        spans = self.settle()
        while self.prune_impls(spans):
            spans = self.settle()
        final = Kit(self.name, self.mods, set(self.drops))
        text, spans, _ = render(final, self.bot_text, allow=True)
        self.keeps &= {k for _, _, k in spans}
        return text, final

    def save(self, final: Kit) -> None:
        """The drops that matched an item of the final kit (stale ones would hide nothing) and
        the trait impls the kit needs."""
        os.makedirs(os.path.dirname(self.drops_path), exist_ok=True)
        with open(self.drops_path, "w", encoding="utf-8") as f:
            for k in sorted(final.used_drops):
                f.write(k + "\n")
            for k in sorted(self.keeps):
                f.write("keep: " + k + "\n")


def build(name: str, verbose: bool = True, write_drops: bool = True) -> str:
    """The kit `name`, dropping items until rustc reports nothing; exits on what dropping cannot
    fix (an error in the bot, a syntax error)."""
    with tempfile.TemporaryDirectory() as tmp:
        b = Builder(name, tmp, verbose)
        text, final = b.build()
    if write_drops:
        b.save(final)
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "kits"))
    ap.add_argument("kits", nargs="*", default=KITS)
    args = ap.parse_args()
    bad = False
    for name in args.kits:
        text = build(name, write_drops=not args.check)
        size = len(text)
        dest = os.path.join(args.out, name + ".rs")
        if args.check:
            try:
                with open(dest, encoding="utf-8") as f:
                    same = f.read() == text
            except FileNotFoundError:
                same = False
            if not same:
                print(f"{dest} differs from a fresh generation: run `make kits`", file=sys.stderr)
                bad = True
        else:
            os.makedirs(args.out, exist_ok=True)
            with open(dest, "w", encoding="utf-8") as f:
                f.write(text)
        status = "ok" if size < LIMIT else "TOO LARGE"
        print(f"{name:10} {size:7} characters  {status}  kits/{name}.rs")
        bad |= size >= LIMIT
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
