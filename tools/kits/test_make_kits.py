#!/usr/bin/env python3
"""Tests of the kit generator's slicer (tools/kits/make_kits.py): its tokenizer on the whole
library, the cfg evaluation and the per-file slicing. Run: python3 tools/kits/test_make_kits.py
(.ci/kits-test runs it)."""

from __future__ import annotations

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_kits as mk  # noqa: E402


def texts(src: str) -> list[str]:
    return [t.text for t in mk.tokenize(src)]


def emit(src: str) -> str:
    out = mk.Out()
    for t in mk.tokenize(src):
        out.tok(t)
    return out.text()


def slice_file(src: str, modules=(), drops=(), extra: dict[str, str] | None = None) -> str:
    """The slicer's output for one file (and the files of its submodules in `extra`)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "lib.rs")
        with open(path, "w", encoding="utf-8") as f:
            f.write(src)
        for name, text in (extra or {}).items():
            with open(os.path.join(d, name + ".rs"), "w", encoding="utf-8") as f:
                f.write(text)
        s = mk.Slicer(mk.Kit("t", set(modules), set(drops)))
        s.emit_file(path, "")
        return s.out.text()


class Tokens(unittest.TestCase):
    def test_comments_go_strings_stay(self):
        src = 'let a = "// not a comment /* nor this */"; // gone\n/* gone /* nested */ too */ b'
        self.assertEqual(texts(src), ["let", "a", "=", '"// not a comment /* nor this */"', ";", "b"])

    def test_literals(self):
        src = r"""r#"a "quoted" b"# b'\'' '"' '\\' '\u{41}' 'x' b"\"" 1.5 1..2 0x1F_u64"""
        self.assertEqual(
            texts(src),
            ['r#"a "quoted" b"#', r"b'\''", "'\"'", r"'\\'", r"'\u{41}'", "'x'", r'b"\""',
             "1.5", "1", ".", ".", "2", "0x1F_u64"],
        )

    def test_lifetimes_are_not_chars(self):
        self.assertEqual(texts("fn f<'a>(x: &'a str) {}")[2:6], ["<", "'a", ">", "("])

    def test_emission_keeps_tokens_apart(self):
        # Punctuation that was apart stays apart (a / *b must not become a comment).
        for src in ["a / *b", "x = *y", "a < <T as X>::Y", "&& &x", "a - -b"]:
            self.assertEqual(texts(emit(src)), texts(src), src)
        self.assertEqual(emit("pub fn  f ( x : u8 )"), "pub fn f(x:u8)")

    def test_the_library_round_trips(self):
        # Every library file, emitted without comments, reads back as the same tokens.
        n = 0
        for dirpath, _, files in os.walk(mk.SRC):
            for f in files:
                if f.endswith(".rs"):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        src = fh.read()
                    self.assertEqual(texts(emit(src)), texts(src), f)
                    n += 1
        self.assertGreater(n, 50)


class Cfg(unittest.TestCase):
    def cfg(self, pred: str):
        toks = mk.tokenize(pred)
        return mk.eval_cfg(toks, 0, len(toks))

    def test_values(self):
        self.assertIs(self.cfg("test"), False)
        self.assertIs(self.cfg('feature = "parallel"'), False)
        self.assertIs(self.cfg('target_arch = "x86_64"'), False)
        self.assertIs(self.cfg('not(target_arch = "x86_64")'), True)
        self.assertIs(self.cfg('target_os = "linux"'), None)
        self.assertIs(self.cfg('all(doctest, target_os = "linux")'), False)
        self.assertIs(self.cfg('any(test, target_os = "linux")'), None)
        self.assertIs(self.cfg('any(not(test), target_os = "linux")'), True)


class Slicing(unittest.TestCase):
    def test_tests_docs_and_features_go(self):
        out = slice_file(
            "//! Module doc.\n"
            "/// Doc.\n#[doc(hidden)]\npub fn f() -> u8 {\n"
            '    #[cfg(feature = "parallel")]\n    if big() { return 2; }\n'
            '    #[cfg(not(feature = "parallel"))]\n    let x = 1;\n'
            '    #[cfg(target_arch = "x86_64")]\n    { fast(); }\n'
            "    x\n}\n"
            '#[cfg_attr(feature = "serde", derive(Serialize))]\n'
            '#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]\nstruct S;\n'
            "#[test]\nfn t() {}\n"
            "#[cfg(test)]\nmod tests { fn g() {} }\n"
        )
        self.assertEqual(out, "pub fn f() ->u8{\nlet x=1;\nx\n}\n#[allow(dead_code)]\nstruct S;")

    def test_modules_inline_and_crate_paths(self):
        src = "pub mod a;\nmod b;\npub use a::X;\n"
        out = slice_file(src, modules={"a"}, extra={"a": "use crate::b::Y;\npub struct X;", "b": "pub struct Y;"})
        # Module b is not in the kit: its declaration goes; a is inlined.
        self.assertEqual(out, "pub mod a{\nuse crate::gridbits::b::Y;\npub struct X;\n}\npub use a::X;")

    def test_empty_modules_go(self):
        src = "mod a;\npub struct Z;\n"
        out = slice_file(src, modules={"a"}, extra={"a": "#[cfg(test)]\nmod tests {}\n"})
        self.assertEqual(out, "pub struct Z;")

    def test_use_leaves_drop_one_by_one(self):
        src = "use crate::m::{A, B as C, d::{E, F}};\n"
        key = "crate | use crate::gridbits::m::"
        out = slice_file(src, drops={key + "B as C", key + "d::E"})
        self.assertEqual(out, "use crate::gridbits::m::{A,d::{F}};")
        out = slice_file(src, drops={key + leaf for leaf in ("A", "B as C", "d::E", "d::F")})
        self.assertEqual(out, "")

    def test_impl_members_drop_one_by_one(self):
        src = "impl S {\n    pub fn a() {}\n    pub fn b() {}\n}\nconst K: [u8; 2] = [1, 2];\n"
        out = slice_file(src, drops={"crate | impl S | pub fn b()"})
        self.assertEqual(out, "impl S{\npub fn a() {}\n}\nconst K: [u8;2] = [1,2];")


if __name__ == "__main__":
    unittest.main()
