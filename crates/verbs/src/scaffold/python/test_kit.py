"""The kit's own tests, which `python3 -m unittest` runs with test_app.py's (no
componentize-py needed). They hold kit.py to mur's rules, on verbs of their own: no
change to app.py changes them. Leave this file as it is; it goes with kit.py (the Rust
and JavaScript kits' tests run the same tables).
"""

import importlib
import io
import json
import os
import sys
import tempfile
import unittest
from unittest import mock

import kit


# mur's verdict on option names (Rust's `char::is_alphanumeric` first, then that or
# `-`, `_`, `.`), one table in the three kits' tests (mur's tests keep them the same).
# names: begin (the same rows in the Rust and JavaScript kits' tests)
OPTION_NAMES = [
    ("clear", True),
    ("dx_2.5", True),
    ("item-selector", True),
    ("2x", True),
    ("a.b", True),
    ("é", True),
    ("café", True),
    ("Ünï", True),
    ("хост", True),
    ("日本", True),
    ("हिंदी", True),
    ("٣", True),
    ("Ⅻ", True),
    ("", False),
    ("--clear", False),
    ("-x", False),
    (".a", False),
    ("_a", False),
    ("a b", False),
    ("x=1", False),
    ("a/b", False),
    ("a→b", False),
    ("✓", False),
    ("x\u202ey", False),
    ("a\u200bb", False),
    ("a\u0085b", False),
    ("e\u0301", False),
    ("a\u00a0b", False),
]
# names: end

# A milliseconds value and its verdict, as mur reads its own `--timeout MS` (the text
# trimmed of Rust's white space, then a `u64`, at least 1) and as `wit/verb.wit` carries
# it (a `u32`): one table in the three kits' tests (mur's tests keep them the same, and
# to `mur --timeout`).
# milliseconds: begin (the same rows in the Rust and JavaScript kits' tests)
MILLISECONDS = [
    ("900", "900"),
    ("+900", "900"),
    ("0900", "900"),
    (" 900\t", "900"),
    ("\u3000+900\n", "900"),
    ("\u0085900\u00a0", "900"),
    ("4294967295", "4294967295"),
    ("abc", "refused"),
    ("-5", "refused"),
    ("0", "refused"),
    ("+0", "refused"),
    ("-0", "refused"),
    ("", "refused"),
    (" ", "refused"),
    ("+", "refused"),
    ("++9", "refused"),
    ("9 00", "refused"),
    ("1.5", "refused"),
    ("5s", "refused"),
    ("0x10", "refused"),
    ("1e3", "refused"),
    ("1_000", "refused"),
    ("²", "refused"),
    ("١٢", "refused"),
    ("\ufeff900", "refused"),
    ("\u001c900", "refused"),
    ("4294967296", "past u32"),
    ("+99999999999", "past u32"),
]
# milliseconds: end


class Click(kit.Verb):
    """The verb `verbs new` writes, as these tests know it: a selector verb."""

    name = "sample"
    tool = "click"
    summary = "Click the element a selector matches"
    positionals = [kit.selector("the element to click")]


class KitTest(unittest.TestCase):
    verb = Click()

    def assert_refused(self, verb, argv, message, msg=None):
        """`verb.parse(argv)` raises `kit.Error` saying `message`, the whole of it."""
        with self.assertRaises(kit.Error, msg=msg) as raised:
            verb.parse(argv)
        self.assertEqual(str(raised.exception), message)

    def test_sends_the_selector_and_the_timeout(self):
        call = self.verb.parse(["#btn-inc", "--timeout", "900"])
        self.assertEqual(json.loads(call.arguments), {"selector": "#btn-inc"})
        self.assertEqual(call.timeout_ms, 900)
        self.assertEqual(call.writes, [])
        # The selector as an option too, as the standard verbs take theirs.
        for argv in (["--selector", "#btn-inc"], ["--selector=#btn-inc"]):
            self.assertEqual(json.loads(self.verb.parse(argv).arguments), {"selector": "#btn-inc"})
        # Written inline, an option's name is a value; so is a word that names none.
        for argv, selector in [(["--selector=--pretty"], "--pretty"), (["--selector", "--x"], "--x")]:
            self.assertEqual(json.loads(self.verb.parse(argv).arguments), {"selector": selector})

    def test_usage_errors_are_one_line(self):
        for argv, message in [
            ([], "missing argument `<selector>`"),
            ([" "], "`<selector>` must not be empty"),
            (["#a", "#b"], "unexpected argument `#b`"),
            (["#a", "--force"], "unknown option `--force`"),
            (["#a", "-hello"], "unknown option `-hello`"),
            (["-hx", "#a"], "unknown option `-hx`"),
            (["#a", "-xh"], "unknown option `-x`"),
            (["#a", "--selector", "#b"], "`<selector>` given twice: as `#a` and as `--selector '#b'`"),
            (["--selector", " "], "`--selector` must not be empty"),
            (["--selectr", "#a"], "unknown option `--selectr`; did you mean `--selector`?"),
            # Case aside, as mur's own hints and the Rust kit's: caps lock makes no other option.
            (["--Selector", "#a"], "unknown option `--Selector`; did you mean `--selector`?"),
            (["#a", "--PRETY"], "unknown option `--PRETY`; did you mean `--pretty`?"),
            (["-s", "#a"], "unknown option `-s`; did you mean `--selector`?"),
            (["#a", "--timout", "5"], "unknown option `--timout`; did you mean `--timeout`?"),
            # A misspelt host option, which `mur` takes after the verb's name too.
            (["#a", "--projct", "App.csproj"], "unknown option `--projct`; did you mean `--project`?"),
            (["#a", "--max-respons", "1M"], "unknown option `--max-respons`; did you mean `--max-response`?"),
            # Only a likely typo of one, by the host's rule: not `--auto-full`.
            (["#a", "--to", "B"], "unknown option `--to`"),
            # A host flag with a value, which the host leaves to the verb; `-v` and `-q`
            # together, which reach a verb natively or from an older `mur` (this one takes `-vq`).
            (["#a", "--pretty=false"], "`--pretty` takes no value, got `false`"),
            # A host option that takes a value, given one: mur's, not "takes no value".
            (["#a", "--project=/a/App.csproj"], "`--project` is mur's: give it before the verb's name"),
            (["#a", "--answer=k=v"], "`--answer` is mur's: give it before the verb's name"),
            (["#a", "-vq"], "unknown option `-vq`; write mur's `-v` and `-q` apart: `-v -q`"),
            # One of them repeated: mur refuses `-v -v` too, so that is not what to type.
            (["#a", "-vv"], "unknown option `-vv`; mur takes `-v` and `-q` once each"),
            (["#a", "-qvq"], "unknown option `-qvq`; mur takes `-v` and `-q` once each"),
            (["#a", "--timeout", "soon"],
             "invalid value `soon` for `--timeout <MS>`: `soon` is not a whole number of milliseconds (e.g. `5000`)"),
            (["#a", "--selector", "#b", "--selector", "#c"], "the argument `--selector <S>` cannot be used multiple times"),
            # The next word one of the verb's options or mur's: the value was left out.
            (["--selector", "--timeout", "5"],
             "`--selector <S>` needs a value, and `--timeout` is an option (a value that begins with `--` is written `--selector=VALUE`)"),
            (["--selector", "--timeout=5"],
             "`--selector <S>` needs a value, and `--timeout` is an option (a value that begins with `--` is written `--selector=VALUE`)"),
            (["--selector", "--pretty"],
             "`--selector <S>` needs a value, and `--pretty` is an option (a value that begins with `--` is written `--selector=VALUE`)"),
            (["--selector", "--project=App.csproj"],
             "`--selector <S>` needs a value, and `--project` is an option (a value that begins with `--` is written `--selector=VALUE`)"),
        ]:
            self.assert_refused(self.verb, argv, message, msg=argv)
        self.assertLessEqual(set(kit.HOST_FLAGS), set(kit.HOST_OPTIONS))

    def test_usage_errors_say_what_was_likely_meant(self):
        class Typed(kit.Verb):
            name = "sample"
            positionals = [kit.selector("the element"), kit.positional("text", "the text")]
            options = [kit.flag("clear", "clear it first"), kit.option("count", "N", "how often", kind="integer")]

        class Fired(kit.Verb):
            name = "sample"
            positionals = [kit.positional("event", "the event", kind="name")]
            options = [kit.option("args", "JSON", "its arguments", kind="json")]

        class Shot(kit.Verb):
            name = "sample"
            options = [
                kit.option("selector", "S", "only S", kind="selector", word=True),
                kit.option("window", "W", "only W", kind="name"),
                kit.option("view", "V", "how much", kind="choice", choices=["summary", "full"]),
                kit.option("out", "PATH", "where", kind="output-path"),
            ]

        hint = "to give it as `<text>`, put it after `--`"
        quote = "quote the words of `<text>` as one"
        for verb, argv, message in [
            # Text that starts with `-`, for a text positional still to fill: after `--`.
            (Typed, ["#x", "-5"], f"unknown option `-5`; {hint}: did you mean `mur devtools sample '#x' -- -5`?"),
            (Typed, ["#x", "-hi there"],
             f"unknown option `-hi there`; {hint}: did you mean `mur devtools sample '#x' -- '-hi there'`?"),
            (Typed, ["--clear", "#x", "-5", "--count", "3"],
             f"unknown option `-5`; {hint}: did you mean `mur devtools sample '#x' --clear --count 3 -- -5`?"),
            (Typed, ["#x", "--zebra"], f"unknown option `--zebra`; {hint}: did you mean `mur devtools sample '#x' -- --zebra`?"),
            (Typed, ["#x", "-5", "--count", "many"], f"unknown option `-5`; {hint}"),
            (Typed, ["-5", "#x"], "unknown option `-5`"),
            (Typed, ["#x", "t", "-5"], "unknown option `-5`"),
            # Several words of text: quoted as one.
            (Typed, ["#x", "buy", "milk", "now"],
             f"unexpected argument `milk`; {quote}: did you mean `mur devtools sample '#x' 'buy milk now'`?"),
            (Typed, ["#x", "buy", "--count", "2", "milk"],
             f"unexpected argument `milk`; {quote}: did you mean `mur devtools sample '#x' 'buy milk' --count 2`?"),
            (Typed, ["#x", "--clear", "--", "-5", "more"],
             f"unexpected argument `more`; {quote}: did you mean `mur devtools sample '#x' --clear -- '-5 more'`?"),
            # `<event>` given as an option: the word, with the command.
            (Fired, ["--event", "a.b"],
             "unknown option `--event`; write `<event>` without `--event`: did you mean `mur devtools sample a.b`?"),
            # A choice's nearest word; the option a short `-x` stands for.
            (Shot, ["--view", "fll"], "`--view` must be `summary` or `full`, got `fll`; did you mean `full`?"),
            (Shot, ["-w", "main"], "unknown option `-w`; did you mean `--window`?"),
            # mur's `-v` or `-q`, then a letter of no flag of mur's: that letter is the
            # unknown one, not `-v`; `-h` is help written apart, and one option's letter
            # is that option, as for `-w` alone.
            (Typed, ["#x", "t", "-vx"], "unknown option `-x` in `-vx`"),
            (Typed, ["#x", "t", "-vh"], "unknown option `-vh`; write mur's `-v` apart: `-v -h`"),
            (Typed, ["#x", "-qv", "t"], "unknown option `-qv`; write mur's `-v` and `-q` apart: `-q -v`"),
            (Typed, ["#x", "-vx"], f"unknown option `-x` in `-vx`; {hint}: did you mean `mur devtools sample '#x' -- -vx`?"),
            (Shot, ["-qvw", "main"], "unknown option `-w` in `-qvw`; did you mean `--window`?"),
            (Shot, ["-vs", "#a"], "unknown option `-s` in `-vs`; did you mean `--selector`?"),
            (Shot, ["-vwx"], "unknown option `-w` in `-vwx`"),
            # mur's flags then something else: what is wrong is named, never the valid `-v`;
            # `-vvh` is told what works (mur refuses `-vv -h` as it refuses `-vv`).
            (Typed, ["#x", "t", "-vvh"], "unknown option `-vvh`; mur takes `-v` and `-q` once each: `-v -h`"),
            (Typed, ["#x", "t", "-qvqh"], "unknown option `-qvqh`; mur takes `-v` and `-q` once each: `-qv -h`"),
            # A number, named whole as `-15` is; a value, as `--quiet=1`; a dash, the word whole.
            (Typed, ["#x", "t", "-v1"], "unknown option `-1` in `-v1`"),
            (Typed, ["#x", "t", "-vv15"], "unknown option `-15` in `-vv15`"),
            (Typed, ["#x", "-v1"], f"unknown option `-1` in `-v1`; {hint}: did you mean `mur devtools sample '#x' -- -v1`?"),
            (Typed, ["#x", "t", "-v=x"], "`-v` takes no value, got `x`"),
            (Typed, ["#x", "t", "-vq="], "`-q` takes no value, got ``"),
            (Typed, ["#x", "-v=x"], f"`-v` takes no value, got `x`; {hint}: did you mean `mur devtools sample '#x' -- -v=x`?"),
            (Typed, ["#x", "t", "-v-"], "unknown option `-v-`"),
            (Typed, ["#x", "t", "-v-x"], "unknown option `-v-x`"),
            # A letter outside ASCII, or none; `h` and more, named whole as `-hx` is; a letter
            # then digits: the letter, as `-x5` alone names `-x` (`-x` with a value).
            (Typed, ["#x", "t", "-vé"], "unknown option `-é` in `-vé`"),
            (Typed, ["#x", "t", "-v😀"], "unknown option `-😀` in `-v😀`"),
            (Typed, ["#x", "t", "-vhx"], "unknown option `-hx` in `-vhx`"),
            (Typed, ["#x", "t", "-x5"], "unknown option `-x`"),
            (Typed, ["#x", "t", "-vx5"], "unknown option `-x` in `-vx5`"),
            # A stray word: a choice's, a path's, else the selector's lone word if it
            # starts like one; one word only, never one that reads as an option.
            (Shot, ["full"], "unexpected argument `full`; did you mean `--view full`?"),
            (Shot, ["shot.png"], "unexpected argument `shot.png`; did you mean `--out shot.png`?"),
            (Shot, ["main"], "unexpected argument `main`; did you mean `--selector main` or `--window main`?"),
            (Shot, ["#a", "#b"], "unexpected argument `#b`"),
            # Beside `--selector`, in either order, the word it would have taken is the
            # selector given twice; a word it would not have taken is another option's.
            (Shot, ["#a", "--selector", "#b"], "`<selector>` given twice: as `#a` and as `--selector '#b'`"),
            (Shot, ["--selector=#b", "[a]"], "`<selector>` given twice: as `[a]` and as `--selector '#b'`"),
            (Shot, ["main", "--selector", "#b"], "unexpected argument `main`; did you mean `--window main`?"),
            (Shot, ["--", "-x"], "unexpected argument `-x`; did you mean `--selector -x` or `--window -x`?"),
            # A JSON object past the positionals: the verb's JSON option, if not given.
            (Fired, ["a.b", '{"value": 10}'], """unexpected argument `{"value": 10}`; did you mean `--args '{"value": 10}'`?"""),
            (Fired, ["a.b", "[1]"], "unexpected argument `[1]`"),
            (Fired, ["a.b", "--args", "{}", '{"a":1}'], 'unexpected argument `{"a":1}`'),
        ]:
            self.assert_refused(verb(), argv, message, msg=argv)
        # What those say to type works: `-v -h` is help, `--selector` the option.
        self.assertIsNone(Typed().parse(["#x", "t", "-v", "-h"]))
        self.assertEqual(json.loads(Shot().parse(["--selector", "#a"]).arguments), {"selector": "#a"})
        # The selector's lone word, as `--selector S`.
        for argv, sent in [(["#a"], {"selector": "#a"}), (["[b]", "--view", "full"], {"selector": "[b]", "view": "full"})]:
            self.assertEqual(json.loads(Shot().parse(argv).arguments), sent)
        lone = Shot().describe()["positionals"]
        self.assertEqual(
            [(p["name"], p["required"], p["help"]) for p in lone],
            [("selector", False, "the same as `--selector S`, where S starts with `#` or `[`")],
        )

    def test_a_negative_number_for_a_numeric_positional_is_told_to_follow_double_dashes(self):
        # As a text's: it read as an option, and said only "unknown option `-1`". One the
        # positional refuses is told why, as after `--` (the Rust kit's count: no `-1`).
        class Counted(kit.Verb):
            name = "sample"
            positionals = [kit.selector("the element"), kit.positional("n", "how many", kind="integer")]

        class Moved(kit.Verb):
            name = "sample"
            positionals = [kit.selector("the element"), kit.positional("by", "how much", kind="number")]

        admits = "an integer from -9223372036854775808 to 18446744073709551615"
        for verb, argv, message in [
            (Counted, ["#x", "-1"],
             "unknown option `-1`; to give it as `<n>`, put it after `--`: did you mean `mur devtools sample '#x' -- -1`?"),
            (Counted, ["#x", "-15"],
             "unknown option `-15`; to give it as `<n>`, put it after `--`: did you mean `mur devtools sample '#x' -- -15`?"),
            (Moved, ["#x", "-1.5"],
             "unknown option `-1.5`; to give it as `<by>`, put it after `--`: did you mean `mur devtools sample '#x' -- -1.5`?"),
            (Counted, ["#x", "-99999999999999999999999"],
             f"`<n>` is out of range: {admits}, got `-99999999999999999999999`"),
            (Counted, ["#x", "-x"], "unknown option `-x`"),
            (Counted, ["#x", "2", "-1"], "unknown option `-1`"),
        ]:
            self.assert_refused(verb(), argv, message, msg=argv)
        self.assertEqual(json.loads(Counted().parse(["#x", "--", "-1"]).arguments), {"selector": "#x", "n": -1})

    def test_a_choice_positional_takes_a_boolean_of_args_as_its_word(self):
        # A JSON boolean in `--args` is the word it is written as, held to the choices as
        # a word typed is: a required boolean, a choice of `true` and `false`, is taken
        # from `{"on": true}`, which was refused ("must be a string"). Other values than
        # strings and booleans are refused as before (the Rust and JavaScript kits' too).
        class Switch(kit.Verb):
            name = "switch"
            tool = "switch"
            positionals = [
                kit.positional("on", "(required)", kind="choice", choices=("true", "false"),
                               option="true|false"),
                kit.positional("mode", "which", kind="choice", choices=("a", "b")),
            ]

        verb = Switch()
        for argv, sent in [
            (["--args", '{"on": false, "mode": "b"}'], {"on": "false", "mode": "b"}),
            (["true", "a"], {"on": "true", "mode": "a"}),
        ]:
            self.assertEqual(json.loads(verb.parse(argv).arguments), sent, argv)
        for args, message in [
            ('{"on": true, "mode": true}', "`mode` in `--args` must be `a` or `b`, got `true`"),
            ('{"on": 1, "mode": "a"}', "`on` in `--args` must be a string, got `1`"),
            ('{"on": null, "mode": "a"}', "`on` in `--args` must be a string, got `null`"),
        ]:
            self.assert_refused(verb, ["--args", args], message, msg=args)

    def test_a_count_is_held_and_sent_as_the_rust_kits_count(self):
        # Kind `count`, the Rust kit's `Kind::Count`: an integer 0 or more, sent as a number,
        # refused in its words, declared to mur as an `integer`. A verb made for a tool's
        # `"minimum": 0` checked `-1` in its own `arguments`: `-1` as a word was "unknown
        # option `-1`", and the message named `<n>` as its option and showed the number.
        class Counted(kit.Verb):
            name = "sample"
            tool = "count"
            positionals = [kit.positional("n", "how many", kind="count", option="N")]
            options = [kit.option("max-results", "N", "at most", kind="count", key="max_results")]

        verb = Counted()
        for argv, sent in [
            (["3"], {"n": 3}),
            (["+7", "--max-results", "0"], {"n": 7, "max_results": 0}),
            (["--", "-0"], {"n": 0}),
            (["--n", "-0"], {"n": 0}),
            (["18446744073709551615"], {"n": 18446744073709551615}),
            (["--args", '{"n": 5}'], {"n": 5}),
        ]:
            call = verb.parse(argv)
            self.assertEqual(json.loads(call.arguments), sent, argv)
            self.assertEqual(json.dumps(json.loads(call.arguments)["n"]), str(sent["n"]), argv)
        self.assertEqual(verb._check(["4"])["n"], 4)
        least = "is out of range: an integer at least 0, got `-1`"
        for argv, message in [
            (["-1"], f"`<n>` {least}"),
            (["--", "-1"], f"`<n>` {least}"),
            (["--n", "-1"], f"`--n` {least}"),
            (["--n=-1"], f"`--n` {least}"),
            (["3", "--max-results", "-1"], f"`--max-results` {least}"),
            (["3", "--max-results=-1"], f"`--max-results` {least}"),
            (["--args", '{"n": -1}'], f"`n` in `--args` {least}"),
            (["--args", '{"n": 1.5}'], "`n` in `--args` needs a non-negative integer, got `1.5`"),
            (["--args", '{"n": true}'], "`n` in `--args` must be a string, got `true`"),
            (["many"], "`<n>` needs a non-negative integer, got `many`"),
            (["3", "--max-results", "1_000"], "`--max-results` needs a non-negative integer, got `1_000`"),
            (["18446744073709551616"],
             "`<n>` is out of range: an integer from 0 to 18446744073709551615, got `18446744073709551616`"),
            (["9" * 5000], f"`<n>` is out of range: an integer from 0 to 18446744073709551615, got `{'9' * 5000}`"),
            (["-0"],
             "unknown option `-0`; to give it as `<n>`, put it after `--`: did you mean `mur devtools sample -- -0`?"),
        ]:
            self.assert_refused(verb, argv, message, msg=argv)
        # Declared to mur as an `integer`, the `value-kind` the Rust kit declares its count as.
        described = verb.describe()
        self.assertEqual(
            [(p["name"], p["kind"]) for p in [*described["positionals"], *described["options"]]][:3],
            [("n", "integer"), ("max-results", "integer"), ("n", "integer")],
        )
        # A wait may be on a count's key, as on an integer's; choices on one are named
        # by the kind `verbs add` reads.
        for argument in ["n", "maxResults"]:
            type("Fine", (kit.Verb,), {"name": "fine", "positionals": Counted.positionals,
                                       "options": Counted.options, "waits": kit.Waits(argument, 5000)})
        with self.assertRaises(TypeError) as raised:
            type("Bad", (kit.Verb,), {"name": "bad", "positionals": [kit.positional("n", "", kind="count",
                                                                                    choices=["1"])]})
        self.assertIn("of kind `integer`: only a `choice` param", str(raised.exception))

    def test_a_value_past_its_bounds_is_refused_in_a_derived_verbs_words(self):
        # An `integer`, `count` or `number` held to a tool's `minimum`, `maximum`,
        # `exclusiveMinimum` and `exclusiveMaximum` refuses a value past them before any
        # call, typed or in `--args`, in the words a derived verb of that schema says
        # (mur's crates/verbs/src/derived.rs) and the Rust kit's `Bounds` too.
        class Bounded(kit.Verb):
            name = "bounded"
            tool = "bounded"
            positionals = [kit.positional("limit", "how many", kind="integer", option="N",
                                          minimum=1, maximum=100)]
            options = [
                kit.option("delay", "MS", "ms", kind="integer", minimum=0, maximum=2000),
                kit.option("ratio", "R", "r", kind="number", exclusive_minimum=0, maximum=1),
                kit.option("both", "N", "n", kind="integer", minimum=1, exclusive_minimum=5),
                kit.option("under", "X", "x", kind="number", exclusive_maximum=0.5),
                kit.option("big", "N", "n", kind="integer", maximum=18446744073709551614),
                kit.option("exact", "N", "n", kind="integer", minimum=2, maximum=2),
                kit.option("pages", "N", "n", kind="count", maximum=10),
                kit.option("max-results", "N", "n", kind="integer", key="max_results", maximum=9),
            ]

        verb = Bounded()
        huge = "99999999999999999999999"
        for argv, message in [
            (["0"], "`<limit>` is out of range: an integer from 1 to 100, got `0`"),
            (["--limit", "500"], "`--limit` is out of range: an integer from 1 to 100, got `500`"),
            (["1", "--delay", "-5"], "`--delay` is out of range: an integer from 0 to 2000, got `-5`"),
            (["1", "--delay", "2001"], "`--delay` is out of range: an integer from 0 to 2000, got `2001`"),
            (["1", "--ratio", "0"], "`--ratio` is out of range: a number above 0 and at most 1, got `0`"),
            (["1", "--ratio", "1.5"], "`--ratio` is out of range: a number above 0 and at most 1, got `1.5`"),
            # Of two bounds on a side, the one that admits less holds.
            (["1", "--both", "5"], "`--both` is out of range: an integer above 5, got `5`"),
            (["1", "--under", "0.5"], "`--under` is out of range: a number below 0.5, got `0.5`"),
            (["1", "--big", "18446744073709551615"],
             "`--big` is out of range: an integer at most 18446744073709551614, got `18446744073709551615`"),
            (["1", "--exact", "3"], "`--exact` is out of range: an integer exactly 2, got `3`"),
            # A count's own 0 is its low end: `-1` is told the whole range.
            (["1", "--pages", "-1"], "`--pages` is out of range: an integer from 0 to 10, got `-1`"),
            (["1", "--pages", "11"], "`--pages` is out of range: an integer from 0 to 10, got `11`"),
            # Past what JSON holds: the range JSON holds, within the bounds.
            (["1", "--both", huge],
             f"`--both` is out of range: an integer above 5 and at most 18446744073709551615, got `{huge}`"),
            # `--args` is held to them as a typed value is, naming the field by its key.
            (["--args", '{"limit": 0}'], "`limit` in `--args` is out of range: an integer from 1 to 100, got `0`"),
            (["1", "--args", '{"delay": 2001}'],
             "`delay` in `--args` is out of range: an integer from 0 to 2000, got `2001`"),
            (["1", "--args", '{"ratio": 0}'],
             "`ratio` in `--args` is out of range: a number above 0 and at most 1, got `0`"),
            (["1", "--args", '{"max_results": 10}'],
             "`max_results` in `--args` is out of range: an integer at most 9, got `10`"),
            # Not a number at all: the kind's own words, as before.
            (["1", "--delay", "x"], "`--delay` needs an integer, got `x`"),
        ]:
            self.assert_refused(verb, argv, message, msg=argv)
        argv = ["100", "--delay", "0", "--ratio", "1", "--both", "6", "--under", "0.25",
                "--big", "18446744073709551614", "--exact", "2", "--pages", "10"]
        self.assertEqual(json.loads(verb.parse(argv).arguments), {
            "limit": 100, "delay": 0, "ratio": 1, "both": 6, "under": 0.25,
            "big": 18446744073709551614, "exact": 2, "pages": 10})
        # An option given beside `--args` replaces its field, which is not checked.
        argv = ["1", "--delay", "5", "--args", '{"delay": 9999}']
        self.assertEqual(json.loads(verb.parse(argv).arguments), {"limit": 1, "delay": 5})
        # A bound that is no number is refused when declared.
        with self.assertRaises(kit.DeclarationError) as raised:
            kit.option("n", "N", "n", kind="integer", maximum="1_000")
        self.assertIn("`maximum='1_000'` is no number", str(raised.exception))

    def test_a_json_option_mur_could_not_read_is_refused_not_sent(self):
        class Fired(kit.Verb):
            name = "sample"
            options = [kit.option("args", "JSON", "its arguments", kind="json"),
                       kit.option("by", "N", "how much", kind="number")]

        def deep(levels):
            return "[" * levels + "]" * levels

        # Inside the arguments object, 126 levels are as deep as mur reads.
        self.assertEqual(json.loads(Fired().parse(["--args", deep(126)]).arguments), {"args": json.loads(deep(126))})
        told = "`--args` is not JSON mur reads: "
        for argv, message in [
            (["--args", deep(127)], told + "arrays or objects nested deeper than 126 levels"),
            (["--args", deep(100000)], told + "arrays or objects nested deeper than 126 levels"),
            (["--args", '{"value": "\\ud800"}'], told + "a string with a lone surrogate escape"),
            (["--args", '{"\\udc00": 1}'], told + "a string with a lone surrogate escape"),
            (["--args", "[1e400]"], told + "NaN, Infinity or a number beyond a 64-bit float"),
            (["--args", '{"a": NaN}'], told + "NaN, Infinity or a number beyond a 64-bit float"),
            # An integer past u64 is a float to mur: 400 digits are beyond one.
            (["--args", "[1" + "0" * 400 + "]"], told + "NaN, Infinity or a number beyond a 64-bit float"),
            (["--args", "-1" + "0" * 400], told + "NaN, Infinity or a number beyond a 64-bit float"),
            (["--by", "nan"], "`--by` needs a number, got `nan`"),
            (["--by", "1e400"], "`--by` needs a number, got `1e400`"),
        ]:
            self.assert_refused(Fired(), argv, message, msg=argv[1][:20])
        # A pair of surrogates is one character, sent as it came.
        self.assertEqual(json.loads(Fired().parse(["--args", '"\\ud83d\\ude00"']).arguments), {"args": "\U0001f600"})
        # A stray object too deep for Python's own parse is no `--args` either.
        stray = '{"a": ' + deep(5000) + "}"
        self.assert_refused(Fired(), [stray], f"unexpected argument `{stray}`")

    def test_an_integer_option_is_sent_exactly_or_refused(self):
        class Counted(kit.Verb):
            name = "sample"
            options = [kit.option("count", "N", "how many", kind="integer"),
                       kit.option("args", "JSON", "its arguments", kind="json")]

        # What mur's JSON holds exactly: i64 and u64.
        for count in [-(2**63), 2**64 - 1, 12345678901234567891]:
            sent = json.loads(Counted().parse(["--count", str(count)]).arguments)
            self.assertEqual(sent, {"count": count})
        # An integer past them, but within a float, is a JSON value mur reads (rounded).
        self.assertEqual(json.loads(Counted().parse(["--args", "1" + "0" * 300]).arguments), {"args": 10**300})
        admits = "an integer from -9223372036854775808 to 18446744073709551615"
        for value in [str(2**64), str(-(2**63) - 1), "1" + "0" * 400, "1" * 5000]:
            self.assert_refused(Counted(), ["--count", value], f"`--count` is out of range: {admits}, got `{value}`", msg=value[:20])

    def test_an_integer_or_a_number_is_read_as_mur_reads_it(self):
        # As Rust's `from_str` reads them (mur's derived verbs, the Rust kit): ASCII digits
        # after at most one sign; Python's int() and float() took `1_000`, spaces and any
        # Unicode digit too.
        class Counted(kit.Verb):
            name = "sample"
            options = [kit.option("count", "N", "how many", kind="integer"),
                       kit.option("by", "X", "how much", kind="number")]

        for option, value, sent in [
            ("count", "+5", 5), ("count", "-5", -5), ("count", "007", 7), ("count", "-0", 0),
            ("by", "+1.5", 1.5), ("by", ".5", 0.5), ("by", "5.", 5), ("by", "-1.e2", -100),
            ("by", "2E-1", 0.2), ("by", "12", 12),
        ]:
            self.assertEqual(json.loads(Counted().parse([f"--{option}", value]).arguments), {option: sent}, value)
        for option, needs, values in [
            ("count", "an integer", ["1_000", " 12", "12 ", "١٢", "１２", "0x10", "+", "", "+-1", "1.0", "1e3"]),
            ("by", "a number", ["1_0.5", " 1.5", "1.5 ", "٣.٥", "0x10", ".", "e5", "1e", "infinity", "+inf", ""]),
        ]:
            for value in values:
                self.assert_refused(Counted(), [f"--{option}", value], f"`--{option}` needs {needs}, got `{value}`", msg=value)

    def test_a_value_is_given_to_the_verb_as_the_type_it_is_sent_as(self):
        # `args["times"]` of an `integer` option was its text `"3"`: `text * times` raised
        # TypeError (exit 6, after the call ran), and an `arguments` passing a value on
        # sent `"4"` where the default sent 4. As `parse` reads it, and as `shape` does.
        seen = []

        class Repeat(kit.Verb):
            name = "repeat"
            tool = "state"
            positionals = [kit.positional("n", "a count", kind="integer")]
            options = [kit.option("times", "N", "how often", kind="integer", send=False),
                       kit.option("by", "X", "how much", kind="number"),
                       kit.option("pause", "MS", "how long", kind="milliseconds"),
                       kit.option("args", "JSON", "more", kind="json"),
                       kit.option("text", "T", "what")]

            def shape(self, result, args, pretty):
                seen.append({name: args[name] for name in ["n", "times", "by", "pause", "args", "text", "timeout"]})
                return "x" * args["times"]

        class PassedOn(Repeat):
            def arguments(self, args):
                return {"n": args["n"], "by": args["by"]}

        argv = ["+7", "--times", "3", "--by", "2", "--pause", " +900 ", "--args", '{"a": 1}', "--text", "4",
                "--timeout", "50"]
        call = Repeat().parse(argv)
        self.assertEqual(json.loads(call.arguments), {"n": 7, "by": 2, "args": {"a": 1}, "text": "4"})
        self.assertEqual(json.loads(PassedOn().parse(argv).arguments), {"n": 7, "by": 2})
        self.assertEqual(Repeat().render("{}", call.state, pretty=False).stdout, b"xxx")
        self.assertEqual(seen, [{"n": 7, "times": 3, "by": 2, "pause": 900, "args": '{"a": 1}', "text": "4",
                                 "timeout": 50}])
        self.assertEqual([type(seen[0][k]) for k in ["n", "times", "by", "pause"]], [int] * 4)
        for by, sent in [("2.0", 2.0), (".5", 0.5), ("2e-1", 0.2), ("1e3", 1000)]:
            got = json.loads(PassedOn().parse(["1", "--by", by]).arguments)["by"]
            self.assertEqual((got, type(got)), (sent, type(sent)), by)

        class Worded(kit.Verb):
            name = "worded"
            options = [kit.option("count", "N", "how many", kind="integer", word=True)]

            def arguments(self, args):
                return {"count": args["count"] + 1}

        self.assertEqual(json.loads(Worded().parse(["41"]).arguments), {"count": 42})
        self.assert_refused(Worded(), ["--count", "2", "3"], "`<count>` given twice: as `3` and as `--count 2`")

    def test_a_milliseconds_value_is_read_as_mur_reads_its_timeout(self):
        # `--timeout` and an option of kind `milliseconds` alike; the kit refused `+900`
        # and white space around the digits, which mur's own `--timeout` takes, and
        # crashed on 5000 digits (past int()'s limit).
        seen = []

        class Pause(kit.Verb):
            name = "pause"
            options = [kit.option("pause", "MS", "how long to pause", kind="milliseconds")]

            def shape(self, result, args, pretty):
                seen.append(args.timeout_ms)
                return ""

        for value, verdict in [*MILLISECONDS, ("9" * 5000, "past u32")]:
            for option in ["--timeout", "--pause"]:
                if verdict not in ("refused", "past u32"):
                    call = Pause().parse([option, value])
                    self.assertEqual(call.timeout_ms, int(verdict) if option == "--timeout" else None, value)
                    continue
                with self.assertRaises(kit.Error, msg=value[:20]) as raised:
                    Pause().parse([option, value])
                # In the host's words for its own `--timeout` before the verb's name.
                invalid = f"invalid value `{value}` for `{option} <MS>`"
                if verdict == "past u32":
                    said = f"{invalid}: the bound is at most 4294967295 ms (about 49 days)"
                elif not value:
                    said = f"`{option} <MS>` needs a value (it was given empty)"
                elif value.strip().lstrip("+") == "0":
                    said = f"{invalid}: the bound must be at least 1 ms"
                else:
                    said = f"{invalid}: `{value}` is not a whole number of milliseconds (e.g. `5000`)"
                self.assertEqual(str(raised.exception), said)
        # The state `shape` gets it from reads it alike.
        Pause().render("{}", Pause().parse(["--timeout", " +900 "]).state, pretty=False)
        self.assertEqual(seen, [900])

    def test_a_choice_positional_takes_its_choices(self):
        # As an option does; a positional of kind `choice` had no way to be given them
        # but `kit.Param(…)`, and without them is refused when declared.
        class Switch(kit.Verb):
            name = "switch"
            positionals = [kit.positional("mode", "how", kind="choice", choices=["fast", "slow"], option="M")]

        self.assertEqual(json.loads(Switch().parse(["fast"]).arguments), {"mode": "fast"})
        self.assertEqual(json.loads(Switch().parse(["--mode", "slow"]).arguments), {"mode": "slow"})
        for argv, said in [(["fats"], "`<mode>` must be `fast` or `slow`, got `fats`; did you mean `fast`?"),
                           (["--mode", "quick"], "`--mode` must be `fast` or `slow`, got `quick`")]:
            self.assert_refused(Switch(), argv, said, msg=argv)
        # Declared to mur with them, as the positional and as its option form.
        described = Switch().describe()
        choices = [p["choices"] for p in described["positionals"] + described["options"] if p["name"] == "mode"]
        self.assertEqual(choices, [["fast", "slow"], ["fast", "slow"]])

    def test_help_is_asked_for_with_help_or_h(self):
        self.assertIsNone(self.verb.parse(["--help"]))
        self.assertIsNone(self.verb.parse(["#a", "#b", "-h"]))

    def test_prints_the_structured_result_as_json(self):
        call = self.verb.parse(["#btn-inc"])
        result = json.dumps({"content": [], "structuredContent": {"clicked": "#btn-inc"}})
        out = self.verb.render(result, call.state, pretty=False)
        self.assertEqual(out.stdout, b'{"clicked":"#btn-inc"}\n')
        pretty = self.verb.render(result, call.state, pretty=True)
        self.assertEqual(pretty.stdout, b'{\n  "clicked": "#btn-inc"\n}\n')

    def test_a_text_content_nested_deeper_than_mur_reads_json_is_printed_as_its_string(self):
        # Read as JSON, one nested some 1000 levels raised RecursionError, a crash (exit
        # 6); past serde_json's 127 levels the Rust kit (and mur's derived verbs) read no
        # JSON in it, and print the text as a string. Up to them it is JSON.
        call = self.verb.parse(["#btn-inc"])

        def printed(text, pretty=False):
            result = json.dumps({"content": [{"type": "text", "text": text}]})
            return self.verb.render(result, call.state, pretty=pretty).stdout.decode()

        def nested(levels, inner=""):
            return "[" * levels + inner + "]" * levels

        for levels in [128, 5000, 100000]:
            for text in [nested(levels), nested(levels, "12345678901234567890"),
                         '{"a":' * levels + "1" + "}" * levels]:
                self.assertEqual(printed(text), json.dumps(text, ensure_ascii=False) + "\n", levels)
                self.assertEqual(printed(text, True), json.dumps(text, ensure_ascii=False) + "\n", levels)
        self.assertEqual(printed(nested(127)), nested(127) + "\n")
        # Brackets in a string nest nothing; an escaped quote ends no string.
        quoted = '["' + "[" * 200 + '\\"' + "{" * 200 + '"]'
        self.assertEqual(printed(quoted), json.dumps(json.loads(quoted), separators=(",", ":")) + "\n")

    def test_notes_for_stderr_are_none_by_default_and_any_a_shape_returns(self):
        call = self.verb.parse(["#btn-inc"])
        result = json.dumps({"structuredContent": {"clicked": "#btn-inc"}})
        self.assertEqual(self.verb.render(result, call.state, pretty=False).notes, [])

        class Hinted(Click):
            def shape(self, result, args, pretty):
                return kit.Output(kit.json_line(kit.payload(result)), notes=["next: mur devtools state"])

        out = Hinted().render(result, call.state, pretty=False)
        self.assertEqual((out.stdout, out.notes), (b'{"clicked":"#btn-inc"}\n', ["next: mur devtools state"]))

    def test_a_stray_word_is_told_the_one_option_it_fits(self):
        # As the Rust kit's test of this name: a word that holds a selector's marks is no
        # window's name (`--window` was named beside `--selector`); a plain word beside
        # `--selector` given is `--window`'s (it was only "unexpected"; the kit named
        # neither option, where the Rust kit named both).
        class Listing(kit.Verb):
            name = "listing"
            options = [
                kit.option("selector", "S", "only S", kind="selector", word=True),
                kit.option("window", "W", "only W", kind="name"),
                kit.option("view", "summary|full", "how much", kind="choice", choices=["summary", "full"]),
            ]

        for argv, message in [
            ([':text("x")'], """unexpected argument `:text("x")`; did you mean `--selector ':text("x")'`?"""),
            (["ListItem:nth(2)", "--view", "full"],
             "unexpected argument `ListItem:nth(2)`; did you mean `--selector 'ListItem:nth(2)'`?"),
            (["--selector", "#a", "main"], "unexpected argument `main`; did you mean `--window main`?"),
            (["main", "--selector", "#a"], "unexpected argument `main`; did you mean `--window main`?"),
            (["--selector", "#a", ':text("x")'], """unexpected argument `:text("x")`"""),
            (["--window", "main", "--selector", "#a", "about"], "unexpected argument `about`"),
        ]:
            self.assert_refused(Listing(), argv, message, msg=argv)

    def test_a_number_is_never_an_options_short_form(self):
        # As the Rust kit's test of this name, and as a derived verb reads `-1` (a value,
        # never an option): it was told "did you mean `--1st`?".
        class Ranked(kit.Verb):
            name = "sample"
            positionals = [kit.selector("the element")]
            options = [kit.option("1st", "N", "the first", kind="integer")]

        for argv, message in [
            (["#x", "-1"], "unknown option `-1`"),
            (["-1", "#x"], "unknown option `-1`"),
            (["#x", "-15"], "unknown option `-15`"),
        ]:
            self.assert_refused(Ranked(), argv, message, msg=argv)

    def test_an_empty_usage_is_composed_as_the_standard_verbs_usage(self):
        # As the Rust kit's `info::usage`: each argument once, in its first form, without
        # `--timeout MS`, which every verb takes. mur composed `sample <selector>
        # [--selector S] [--timeout MS]` from every option, beside the standard `click
        # <selector>`.
        self.assertEqual(self.verb.describe()["usage"], "sample <selector>")

        class Tree(kit.Verb):
            name = "tree"
            options = [
                kit.option("selector", "S", "only S", kind="selector", word=True),
                kit.option("window", "W", "only W", kind="name"),
                kit.option("view", "summary|full", "how much", kind="choice", choices=["summary", "full"]),
                kit.flag("include-reactor-source", "with sources"),
            ]

        class Odd(kit.Verb):
            name = "odd"
            positionals = [kit.positional("event", "which", kind="name"), kit.positional("n", "how many", kind="integer")]
            options = [
                kit.option("mode", "M", "which", kind="choice", choices=["fast", "New York"]),
                kit.option("note", "", "a note"),
            ]

        class Given(kit.Verb):
            name = "given"
            usage = "given <what> [--how H]"

        for verb, usage in [
            (Tree, "tree [<selector>] [--window W] [--view summary|full] [--include-reactor-source]"),
            # A choice's placeholder that does not list its choices gives way to them, as
            # in mur's options list; no placeholder is `VALUE`.
            (Odd, "odd <event> <n> [--mode fast|'New York'] [--note VALUE]"),
            (Given, "given <what> [--how H]"),
        ]:
            self.assertEqual(verb().describe()["usage"], usage)

    def test_describes_itself(self):
        info = self.verb.describe()
        self.assertEqual((info["name"], info["tool"]), ("sample", "click"))
        self.assertEqual([p["name"] for p in info["positionals"]], ["selector"])
        self.assertEqual(
            [(p["name"], p["value_name"], p["help"]) for p in info["options"]],
            [("selector", "S", "the same as `<selector>`"),
             ("timeout", "MS", "let the call take up to MS milliseconds"),
             ("args", "JSON", kit.WHOLE_HELP)],
        )

    def test_args_gives_the_whole_arguments_object_as_a_derived_verb_takes_it(self):
        # Its fields are sent as typed; the options given beside it override them.
        call = self.verb.parse(["#x", "--args", '{"delayMs": 5, "selector": "#y", "k": null}'])
        self.assertEqual(json.loads(call.arguments), {"delayMs": 5, "k": None, "selector": "#x"})
        self.assertEqual(json.loads(self.verb.parse(["#x", "--args= {} "]).arguments), {"selector": "#x"})
        # A positional no word is typed for is taken from it, as a derived verb takes a
        # required property.
        self.assertEqual(
            json.loads(self.verb.parse(["--args", '{"selector": "#y", "k": 1}']).arguments),
            {"k": 1, "selector": "#y"},
        )
        for argv, message in [
            (["#x", "--args", "[]"], "`--args` must be a JSON object"),
            (["#x", "--args", "{"], "`--args` is not valid JSON: "),
            (["--args", "{}"], "missing argument `<selector>`"),
            (["--args", '{"selector": 5}'], "`selector` in `--args` must be a string, got `5`"),
            (["--args", '{"selector": " "}'], "`selector` in `--args` must not be empty"),
        ]:
            with self.assertRaises(kit.Error, msg=argv) as raised:
                self.verb.parse(argv)
            self.assertTrue(str(raised.exception).startswith(message), str(raised.exception))

        # A verb with an option `args` of its own takes the whole object as `--all-args`.
        class Fire(kit.Verb):
            name = "fire"
            tool = "fire"
            summary = "Fire"
            positionals = [kit.positional("target", "the event", kind="name")]
            options = [kit.option("args", "JSON", "the event's arguments", kind="json")]

        call = Fire().parse(["t", "--args", "[1]", "--all-args", '{"target": "u", "more": 1}'])
        self.assertEqual(json.loads(call.arguments), {"more": 1, "target": "t", "args": [1]})
        self.assertEqual(
            [p["name"] for p in Fire().describe()["options"]], ["args", "timeout", "all-args"]
        )

    def test_a_big_integer_is_sent_as_typed_and_a_key_given_twice_once(self):
        # As the JavaScript and Rust kits send them (mur's derived verbs read JSON so):
        # an integer past a 64-bit float's exact ones as typed, a key given twice once,
        # in its first place, with its last value. Python's `json` does both itself.
        whole = (
            '{"id": 12345678901234567890, "a": 1, "low": -98765432109876543210, '
            '"a": [9007199254740993, 2.5, {"n": 100000000000000000000000}], "selector": "#y", "selector": "#z"}'
        )
        self.assertEqual(
            self.verb.parse(["--args", whole]).arguments,
            '{"id": 12345678901234567890, "a": [9007199254740993, 2.5, {"n": 100000000000000000000000}], '
            '"low": -98765432109876543210, "selector": "#z"}',
        )

        class Fire(kit.Verb):
            name = "fire"
            tool = "fire"
            summary = "Fire"
            options = [kit.option("args", "JSON", "the event's arguments", kind="json")]

        self.assertEqual(
            Fire().parse(["--args", '{"id": 12345678901234567891, "id": 18446744073709551615}']).arguments,
            '{"args": {"id": 18446744073709551615}}',
        )

    def test_a_param_no_command_line_could_give_is_refused_when_declared(self):
        rule = (
            "which no command line can give: an option's name starts with a letter or a digit and "
            "holds only letters, digits, `-`, `_` and `.`"
        )
        host = "; `mur devtools verbs add` would refuse it"

        def kits(shown):
            # The kit's own rule, which `verbs add` would let through: never said to be its.
            return (
                f"positional named `{shown}`, which the kit refuses (`mur devtools verbs add` would "
                f"not): shown as `<{shown}>`, it reads as an option or as two words in a usage line; "
                "a positional's name does not start with `-` and holds no space"
            )

        for positionals, options, why in [
            ([], [kit.flag("--clear", "")], f"option named `--clear`, {rule}{host}"),
            ([], [kit.flag("", "")], f"option with an empty name, {rule}{host}"),
            ([kit.positional(" ", "")], [], f"a positional with no name for its usage to show{host}"),
            ([kit.positional("the text", "")], [], kits("the text")),
            ([kit.positional("-x", "")], [], kits("-x")),
            ([], [kit.flag("clear", ""), kit.flag("clear", "")], f"two options named `clear`{host}"),
            ([kit.selector(""), kit.selector("")], [], f"two positionals named `selector`{host}"),
            ([], [kit.flag("help", "")], f"option `help`, which is the host's own `-h, --help`{host}"),
            ([], [kit.option("timeout", "S", "")],
             "option `timeout`, which the kit declares for every verb (`--timeout MS`)"),
            ([kit.selector("")], [kit.flag("selector", "")],
             "positional `<selector>` also given as `--selector`, an option of its own besides, "
             "which the kit refuses"),
            ([], [kit.option("all", "", "", kind="flag", word=True)],
             "flag `--all` also given as a word, which a flag has no value for, which the kit refuses"),
            ([kit.positional("text", "")], [kit.option("window", "W", "", word=True)],
             "option `--window` also given as a word beside positionals, which the word would fill, "
             "which the kit refuses"),
        ]:
            with self.assertRaises(TypeError, msg=why) as raised:
                type("Bad", (kit.Verb,), {"name": "bad", "positionals": positionals, "options": options})
            self.assertEqual(str(raised.exception), f"verb `bad` declares {why}")
        # What the standard verbs declare is fine (`fire`'s `<Component>.<event>`).
        type("Fine", (kit.Verb,), {"name": "fine", "positionals": [kit.positional("Component>.<event", "")]})

    def test_option_names_are_judged_as_mur_judges_them(self):
        for name, host in OPTION_NAMES:
            why = kit.unusable([], [kit.flag(name, "")])
            if host:
                self.assertIsNone(why, msg=name)
            else:
                self.assertIsNotNone(why, msg=name)
        # A mark mur counts as a letter but Python's tables cannot tell from others
        # (the Hebrew point sheva): refused as the kit's own rule, never as mur's.
        why = kit.unusable([], [kit.flag("\u05e9\u05b0", "")])
        self.assertIn("which the kit refuses (`mur devtools verbs add` may take it)", why)
        self.assertIn("U+05B0", why)

    def test_a_flag_not_sent_is_still_given_to_shape(self):
        class Brief(kit.Verb):
            name = "brief"
            options = [kit.option("selector", "S", "the element"), kit.flag("brief", "only the text", send=False)]

            def shape(self, result, args, pretty):
                shown = result["structuredContent"]
                return kit.json_line(shown["text"] if args["brief"] else shown, pretty)

        verb = Brief()
        call = verb.parse(["--selector", "#count", "--brief"])
        self.assertEqual(json.loads(call.arguments), {"selector": "#count"})
        result = json.dumps({"structuredContent": {"text": "2"}})
        self.assertEqual(verb.render(result, call.state, pretty=False).stdout, b'"2"\n')
        self.assertEqual(verb.describe()["options"][1]["kind"], "flag")

    def test_a_tool_that_waits_gets_the_timeout_and_says_so_in_the_component(self):
        class Waiting(kit.Verb):
            name = "waiting"
            tool = "waitFor"
            positionals = [kit.selector("the element")]
            waits = kit.Waits("timeoutMs", 5000)

        verb = Waiting()
        call = verb.parse(["#s", "--timeout", "900"])
        self.assertEqual(json.loads(call.arguments), {"selector": "#s", "timeoutMs": 900})
        self.assertEqual(json.loads(verb.parse(["#s"]).arguments), {"selector": "#s"})
        timeout = [o for o in verb.describe()["options"] if o["name"] == "timeout"]
        self.assertEqual(timeout[0]["help"], "let the wait (default: 5000) and the call take up to MS milliseconds")
        # build.sh's stamp: the name, then `ARGUMENT=MS`; a verb that declares no wait, only its name.
        with tempfile.TemporaryDirectory() as tmp:
            path = f"{tmp}/verb.wasm"
            for world, written in [
                (kit.export(Waiting), b"\x00\x15\x0dmur:verb-namewaiting\x00\x1d\x0emur:verb-waitstimeoutMs=5000"),
                (kit.export(Click), b"\x00\x14\x0dmur:verb-namesample"),
            ]:
                with open(path, "wb") as out:
                    out.write(b"\x00asm")
                kit.stamp(path, world)
                with open(path, "rb") as written_file:
                    self.assertEqual(written_file.read(), b"\x00asm" + written)

    def test_a_wait_mur_could_not_read_is_refused_when_declared(self):
        unnamed = (
            "which no tool argument is named: the argument's name is 1 to 128 bytes, without spaces, "
            "control characters or `=`"
        )
        for waits, why in [
            (("timeoutMs", 5000), "`waits` as tuple; declare `kit.Waits(argument, default_ms)`"),
            (kit.Waits("", 5000), f"a wait on the argument '', {unnamed}"),
            (kit.Waits("timeout ms", 5000), f"a wait on the argument 'timeout ms', {unnamed}"),
            (kit.Waits("a=b", 5000), f"a wait on the argument 'a=b', {unnamed}"),
            (kit.Waits("x" * 129, 5000), f"a wait on the argument {'x' * 129!r}, {unnamed}"),
            (kit.Waits("timeoutMs", -1), "a default wait of -1 ms for `timeoutMs`: it is a whole number of milliseconds, 0 to 4294967295"),
            (kit.Waits("timeoutMs", 2.5), "a default wait of 2.5 ms for `timeoutMs`: it is a whole number of milliseconds, 0 to 4294967295"),
            (kit.Waits("timeoutMs", 2**32), "a default wait of 4294967296 ms for `timeoutMs`: it is a whole number of milliseconds, 0 to 4294967295"),
            (kit.Waits("timeoutMs", True), "a default wait of True ms for `timeoutMs`: it is a whole number of milliseconds, 0 to 4294967295"),
        ]:
            with self.assertRaises(TypeError, msg=why) as raised:
                type("Bad", (kit.Verb,), {"name": "bad", "waits": waits})
            self.assertEqual(str(raised.exception), f"verb `bad` declares {why}")

    def test_a_name_verbs_add_would_refuse_is_refused_when_declared(self):
        # `Py_Click` and `call` passed these tests and a ~50 s build; `verbs add` refused
        # them (review 314, 7). In its words (mur's crates/verbs/src/names.rs).
        host = "; `mur devtools verbs add` would refuse it"
        for name in ["Py_Click", "9lives", "x--y", "x-", "", "a" * 65, None]:
            with self.assertRaises(kit.DeclarationError, msg=name) as raised:
                type("Bad", (kit.Verb,), {"name": name})
            self.assertEqual(
                str(raised.exception), f"the verb names itself `{name}`; {kit.VERB_NAME_RULE}{host}"
            )
        for name, why in [
            ("call", "a word `mur devtools` answers itself: a verb by that name could not be called"),
            ("index", "the name of the verb directory's own index: a verb by that name would be "
             "taken for it"),
        ]:
            with self.assertRaises(kit.DeclarationError, msg=name) as raised:
                type("Bad", (kit.Verb,), {"name": name})
            self.assertEqual(str(raised.exception), f"the verb names itself `{name}`, {why}{host}")
        for name in ["py-click", "my-call", "index-of", "a" * 64]:
            type("Fine", (kit.Verb,), {"name": name})

    def test_choices_and_a_wait_verbs_add_would_refuse_are_refused_when_declared(self):
        # In `verbs add`'s words (mur's crates/verbs/src/spec.rs), judged on the params
        # `describe` declares: an option also taken as a word is a positional first.
        host = "; `mur devtools verbs add` would refuse it"

        def none(named):
            return (f"{named} of kind `choice` with no choices, which would refuse every value: give it "
                    f"its choices, or another kind{host}")

        def wait(argument, named, kind):
            return (f"a wait (`mur:verb-waits`) on `{argument}`, the argument its {named} of kind `{kind}` "
                    "is sent as: the host sets a wait's argument to a number of milliseconds, so it must be "
                    f"a key no param of the verb declares, or an `integer` param's{host}")

        def never_sent(argument, named, shown):
            return (f"a wait (`mur:verb-waits`) on `{argument}`, the key its {named} of kind `milliseconds` "
                    "would be sent under, but a milliseconds value is never sent: the wait's value is the "
                    f"verb's own `--timeout MS`; drop `{shown}`, or give it kind `integer`{host}")

        words = [kit.option("text-matches", "RE", ""), kit.flag("brief", "", send=False),
                 kit.option("timeout-ms", "N", "", kind="integer"),
                 kit.option("delay", "MS", "", kind="milliseconds")]
        for positionals, options, waits, why in [
            ([kit.positional("mode", "", kind="choice")], [], None, none("positional `<mode>`")),
            ([], [kit.option("mode", "M", "", kind="choice")], None, none("option `--mode`")),
            ([], [kit.option("mode", "M", "", kind="choice", word=True)], None, none("positional `<mode>`")),
            ([], [kit.option("mode", "M", "", choices=["fast", "slow"])], None,
             "choices for option `--mode`, of kind `text`: only a `choice` param is held to its choices; "
             f"make it kind `choice`, or leave out its choices{host}"),
            ([kit.positional("n", "", kind="integer", choices=["1", "2"])], [], None,
             "choices for positional `<n>`, of kind `integer`: only a `choice` param is held to its "
             f"choices; make it kind `choice`, or leave out its choices{host}"),
            ([], words, kit.Waits("textMatches", 5000), wait("textMatches", "option `--text-matches`", "text")),
            ([], words, kit.Waits("brief", 5000), wait("brief", "option `--brief`", "flag")),
            # By its name, not by the key the kit sends it under: `verbs add` cannot know it.
            ([kit.positional("path", "", key="file")], [], kit.Waits("path", 5000),
             wait("path", "positional `<path>`", "text")),
            # Its option form is an option, sent in camelCase.
            ([kit.positional("item-selector", "", kind="selector", option="S")], [], kit.Waits("itemSelector", 5000),
             wait("itemSelector", "option `--item-selector`", "selector")),
            # Declared as `text`: `verbs add` cannot know the kit never sends it.
            ([], [kit.option("limit-ms", "N", "", send=False)], kit.Waits("limitMs", 5000),
             wait("limitMs", "option `--limit-ms`", "text")),
            # Never sent: the user's `--delay 1000` was dropped.
            ([], words, kit.Waits("delay", 5000), never_sent("delay", "option `--delay`", "--delay")),
            ([kit.positional("pause", "", kind="milliseconds")], [], kit.Waits("pause", 5000),
             never_sent("pause", "positional `<pause>`", "<pause>")),
        ]:
            with self.assertRaises(TypeError, msg=why) as raised:
                type("Bad", (kit.Verb,), {"name": "bad", "positionals": positionals, "options": options,
                                          "waits": waits})
            self.assertEqual(str(raised.exception), f"verb `bad` declares {why}")
        # A wait on a key no param is sent under, however near its name, or on an
        # integer's or the kit's own `--timeout`'s (the value the wait is given), is fine.
        for argument in ["text_matches", "TextMatches", "text-matches", "timeoutMs", "timeout"]:
            type("Fine", (kit.Verb,), {"name": "fine", "options": words, "waits": kit.Waits(argument, 5000)})
        type("Fine", (kit.Verb,), {"name": "fine", "positionals": [kit.positional("path", "", key="file")],
                                   "waits": kit.Waits("file", 5000)})

    def test_a_refusal_names_the_line_of_what_is_at_fault_and_the_kind_meant(self):
        # build.sh says `kit.refusal`'s line: the place of the option at fault (the second
        # of two of one name), not the class's, whatever the mistake; a kind spelt as
        # Python spells its type is answered with the kit's.
        host = "; `mur devtools verbs add` would refuse it"
        kinds = "flag, text, selector, name, choice, integer, count, number, json, output-path, milliseconds"
        for case, (second, line, why) in enumerate([
            ('kit.flag("--color", "")', 10,
             "verb `bad` declares option named `--color`, which no command line can give: an "
             "option's name starts with a letter or a digit and holds only letters, digits, `-`, "
             f"`_` and `.`{host}"),
            ('kit.flag("help", "")', 10,
             f"verb `bad` declares option `help`, which is the host's own `-h, --help`{host}"),
            ('kit.flag(\n            "clear", "")', 10, f"verb `bad` declares two options named `clear`{host}"),
            ('kit.option("n", "N", "", kind="int")', 10,
             f"kind `int` is not one of {kinds}; did you mean `integer`?"),
            ('kit.option("n", "N", "", kind="numbr")', 10,
             f"kind `numbr` is not one of {kinds}; did you mean `number`?"),
            ('kit.option("n", "N", "", kind=float)', 10,
             f"kind `float` is not one of {kinds}; did you mean `number`?"),
            ('kit.option("n", "N", "", kind="boolean")', 10,
             f"kind `boolean` is not one of {kinds}; did you mean `flag`?"),
            ('kit.option("n", "N", "", kind=str)', 10,
             f"kind `str` is not one of {kinds}; did you mean `text`?"),
            ('kit.option("n", "N", "", kind="path")', 10, f"kind `path` is not one of {kinds}"),
            ('kit.flag("fine", "")', 7,
             "verb `bad` declares a wait on the argument 'timeout ms', which no tool argument is "
             "named: the argument's name is 1 to 128 bytes, without spaces, control characters or `=`"),
            ('kit.option("mode", "M", "", kind="choice")', 10,
             "verb `bad` declares option `--mode` of kind `choice` with no choices, which would refuse "
             f"every value: give it its choices, or another kind{host}"),
            ('kit.option("timeout-ms", "MS", "")', 7,
             "verb `bad` declares a wait (`mur:verb-waits`) on `timeoutMs`, the argument its option "
             "`--timeout-ms` of kind `text` is sent as: the host sets a wait's argument to a number of "
             "milliseconds, so it must be a key no param of the verb declares, or an `integer` "
             f"param's{host}"),
            # A string is no list of choices: `fast` made the choices `f`, `a`, `s`, `t`.
            ('kit.option("mode", "M", "", kind="choice", choices="fast")', 10,
             'choices given as the string "fast", which would be one choice a letter: give a list, '
             '`choices=["fast"]`'),
            ('kit.positional("mode", "", kind="choice", choices="ab")', 10,
             'choices given as the string "ab", which would be one choice a letter: give a list, '
             '`choices=["ab"]`'),
        ]):
            argument = "timeout ms" if "fine" in second else "timeoutMs"
            source = "\n".join([
                "import kit", "", "",
                "class Bad(kit.Verb):",
                '    name = "bad"',
                '    tool = "waitFor"',
                f'    waits = kit.Waits("{argument}", 5000)',
                "    options = [",
                '        kit.flag("clear", ""),',
                f"        {second},",
                "    ]", "",
            ])
            with tempfile.TemporaryDirectory() as directory:
                module = f"refused_{case}"
                path = os.path.join(directory, f"{module}.py")
                with open(path, "w", encoding="utf-8") as file:
                    file.write(source)
                sys.path.insert(0, directory)
                try:
                    importlib.invalidate_caches()
                    self.assertEqual(kit.refusal(module), f"{os.path.relpath(path)}:{line}: {why}", source)
                finally:
                    sys.path.remove(directory)

    def test_a_crash_names_the_project_s_files_as_the_project_does(self):
        # Its traceback, which `mur` shows the innermost frame of: componentize-py runs
        # the project from a directory of its own, so a crash said `File "/0/app.py"`.
        def boom():
            try:
                {}["key"]
            except KeyError as missing:
                raise ValueError("boom") from missing

        class Aborted(Exception):
            pass

        def abort():
            raise Aborted

        stderr = io.StringIO()
        with mock.patch.object(kit.os, "abort", abort), mock.patch.object(kit.sys, "stderr", stderr):
            with self.assertRaises(Aborted):
                kit._answer(boom)
        said = stderr.getvalue()
        line = boom.__code__.co_firstlineno
        for frame in [f'File "test_kit.py", line {line + 2}, in boom\n    {{}}["key"]\n',
                      f'File "test_kit.py", line {line + 4}, in boom\n    raise ValueError("boom") from missing\n']:
            self.assertIn(frame, said)
        self.assertTrue(said.endswith("\nValueError: boom\n"), said)
        self.assertNotIn('File "/', said)


if __name__ == "__main__":
    unittest.main()
