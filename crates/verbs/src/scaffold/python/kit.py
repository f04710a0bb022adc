"""The verb kit for Python: a verb says what it is and which argv it takes, and
the kit implements `mur:verb@0.3.0` (wit/verb.wit) from that.

    import kit

    class Verb(kit.Verb):
        name = "click2"                          # the word after `mur devtools`
        tool = "click"                           # the MCP tool it calls
        summary = "Click the element a selector matches"
        positionals = [kit.selector("the element to click")]

    WitWorld = kit.export(Verb)                 # what componentize-py looks for

The kit parses and checks argv (every option is declared to `mur`, which
renders `--help` and completions from it), builds the tool's arguments, and
prints the result's `structuredContent` as JSON. Override `arguments` or
`shape` when the defaults do not fit. Everything but `export` is plain Python,
so `python3 -m unittest` tests a verb without componentize-py.

A verb whose tool waits on a bound of its own (the sample's `waitFor` polls
until its `timeoutMs`, 5000 ms when not sent) says so, with the argument that
sets the bound and the tool's default: `waits = kit.Waits("timeoutMs", 5000)`.
Its `--timeout MS` is then sent as that argument too, and build.sh writes the
declaration in the component (section `mur:verb-waits`), so that when the call
would end first, `mur` lowers the wait and prints the tool's own answer that it
gave up (exit 5) instead of cutting the call off (exit 2).

`shape` may return `kit.Output(stdout, notes=["next: mur devtools state"])`:
notes are lines `mur` prints on stderr after stdout, for whoever reads the
transcript (the likely next command, what was cut) — never part of the result,
hidden by `-q`; none by default.

It also takes care of what the component model is strict about:
- `stdout` must be bytes: a `str` from `shape` is encoded as UTF-8, and any
  other type fails with a message naming it (exit 6), never a silent nothing;
- a `result` error must be a `str`: raise `kit.Error("message")` (a usage
  error in `parse`, exit 1; a failure in `shape`, exit 6) and the kit makes it
  the component's error;
- any other exception is a bug: it is left to propagate, so `mur` shows its
  type, message and innermost frame (exit 6).
"""

import dataclasses
import importlib
import json
import math
import os
import re
import string
import sys
import traceback
from dataclasses import dataclass, field

__all__ = [
    "Args", "Call", "DeclarationError", "Error", "FileWrite", "Output", "Param", "Verb",
    "Waits", "export", "flag", "json_line", "option", "payload", "positional", "refusal",
    "selector", "stamp",
]

KINDS = (
    "flag", "text", "selector", "name", "choice", "integer", "count", "number", "json",
    "output-path", "milliseconds",
)
"""The kinds a param may have: those of `wit/verb.wit`'s `value-kind`, as the kit
spells them, and `count`, an integer 0 or more (the Rust kit's `Kind::Count`), declared
to `mur` as an `integer` (`_hosts_kind`)."""


def _hosts_kind(kind):
    """The `value-kind` of `wit/verb.wit` a param of `kind` is declared to `mur` as, the
    name `verbs add` gives it: a `count` is an `integer`, as the Rust kit's is."""
    return "integer" if kind == "count" else kind


class Error(Exception):
    """A message for the user, one lowercase line: from `parse` (or `arguments`)
    a usage error (exit 1, with the usage); from `shape` a failure (exit 6)."""


class DeclarationError(TypeError, ValueError):
    """A verb declared as the kit cannot take it (a param's kind, its params, its
    `waits`), raised where it is declared. build.sh loads app.py natively before
    componentize-py does and says it in one line (`refusal`): componentize-py would
    bury it in its own traceback. `where` is the place of the declaration at fault
    (`(file, line)`, see `_made_where`), when the kit knows it."""

    def __init__(self, message, where=None):
        super().__init__(message)
        self.where = where


def _made_where():
    """`(file, line)` of the verb's code that made a param or a `Waits`: the first
    frame outside the kit (and dataclasses' generated `__init__`). A `Verb` subclass
    is judged when its class statement ends, whose line is the class's: a refusal
    points at the param at fault with this, not at the class."""
    frame = sys._getframe(1)
    while frame is not None and (
        frame.f_code.co_filename.startswith("<")
        or os.path.abspath(frame.f_code.co_filename) in _NOT_THE_VERBS
    ):
        frame = frame.f_back
    return None if frame is None else (frame.f_code.co_filename, frame.f_lineno)


# `getattr`: a module loaded from no file (frozen, as an embedder may) has no `__file__`.
_NOT_THE_VERBS = {
    os.path.abspath(path) for path in (__file__, getattr(dataclasses, "__file__", None)) if path
}

_KINDS_AS_TYPES_SAY = {
    "int": "integer", "float": "number", "str": "text", "string": "text", "bool": "flag",
    "boolean": "flag",
}
"""The kinds a type's name may have been meant as, in any case (`kind="int"`, `kind=int`,
JSON Schema's `"boolean"`): one table in the Python and JavaScript kits."""


def _kind_meant(typed):
    """"; did you mean `integer`?" for a kind not among `KINDS`, when one is near."""
    if not isinstance(typed, str):
        return ""
    meant = _KINDS_AS_TYPES_SAY.get(typed.lower()) or (_nearest(typed, KINDS) or (0, None))[1]
    return "" if meant is None else f"; did you mean `{meant}`?"


@dataclass(frozen=True)
class Param:
    """One positional or option. `key` is the tool argument it is sent under
    (default: a positional's name, an option's name in camelCase); `send=False`
    keeps it out of the arguments (for values `arguments` reads itself). A second
    form: a positional's `option` is the placeholder of `--name VALUE`, which gives
    it too; an option with `word=True` is also taken as a lone word."""

    name: str
    help: str
    kind: str = "text"
    value_name: str = ""
    choices: tuple = ()
    key: str = ""
    send: bool = True
    option: str = ""
    word: bool = False
    # The bounds of an `integer`, `count` or `number` value, as a tool's schema names
    # them (`minimum`, `exclusiveMinimum`, …): a value past them is refused before any
    # call, in a derived verb's words (`_check_bounds`).
    minimum: object = None
    maximum: object = None
    exclusive_minimum: object = None
    exclusive_maximum: object = None

    def __post_init__(self):
        # Not a field: two params alike are equal wherever they were made.
        object.__setattr__(self, "where", _made_where())
        if self.kind not in KINDS:
            # A type given for its name (`kind=int`) is named as typed, not `<class 'int'>`.
            typed = self.kind.__name__ if isinstance(self.kind, type) else self.kind
            raise DeclarationError(
                f"kind `{typed}` is not one of {', '.join(KINDS)}{_kind_meant(typed)}", self.where
            )
        # A string is a sequence of its letters: `choices="fast"` made the choices `f`,
        # `a`, `s`, `t`, and refused `fast`.
        if isinstance(self.choices, str):
            quoted = json.dumps(self.choices)
            raise DeclarationError(
                f"choices given as the string {quoted}, which would be one choice a letter: give "
                f"a list, `choices=[{quoted}]`", self.where
            )
        object.__setattr__(self, "choices", tuple(self.choices))
        for name in ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum"):
            bound = getattr(self, name)
            number = isinstance(bound, (int, float)) and not isinstance(bound, bool)
            if bound is not None and not (number and math.isfinite(bound)):
                raise DeclarationError(f"`{name}={bound!r}` is no number", self.where)


@dataclass(frozen=True)
class Waits:
    """What a verb's tool waits on (`Verb.waits`): `argument`, the tool argument
    that bounds its wait in milliseconds (`timeoutMs`), and `default_ms`, how long
    it waits when the argument is not sent."""

    argument: str
    default_ms: int

    def __post_init__(self):
        object.__setattr__(self, "where", _made_where())


WAITS_LIMIT = 2**32 - 1
"""The longest wait a verb can declare, in ms: mur reads it as a 32-bit count."""


def unusable_waits(waits):
    """What is wrong with a verb's `waits`, which `mur devtools verbs add` would
    refuse (its section `mur:verb-waits` is `ARGUMENT=MS`), or None."""
    if waits is None:
        return None
    if not isinstance(waits, Waits):
        return f"`waits` as {type(waits).__name__}; declare `kit.Waits(argument, default_ms)`"
    argument, ms = waits.argument, waits.default_ms
    if (
        not isinstance(argument, str)
        or not argument
        or len(argument.encode("utf-8")) > 128
        or any(c.isspace() or c == "=" or _category(c) == "Cc" for c in argument)
    ):
        return (
            f"a wait on the argument {argument!r}, which no tool argument is named: the argument's "
            "name is 1 to 128 bytes, without spaces, control characters or `=`"
        )
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= WAITS_LIMIT:
        return (
            f"a default wait of {ms!r} ms for `{argument}`: it is a whole number of milliseconds, "
            f"0 to {WAITS_LIMIT}"
        )
    return None


VERB_NAME_RULE = (
    "a verb name is lowercase letters, digits and inner dashes (never two in a row), "
    "starting with a letter, at most 64 characters"
)
"""The rule `mur devtools verbs add` holds a verb's name to, in its words (mur's
crates/verbs/src/names.rs). A copy, as are `HOST_VERBS` and the Rust and JavaScript
kits' own: the e2e test `scaffold_python::the_kits_hold_a_verbs_name_to_the_hosts_rule`
holds them to the host's."""

HOST_VERBS = (
    "bridge", "call", "catalog", "guide", "help", "parity", "proxy", "session", "usage", "verbs",
)
"""The words `mur devtools` answers itself (its commands and `help`): `verbs add`
refuses a verb of one of these names, which could never be called."""


def unusable_name(name):
    """Why `mur devtools verbs add` would refuse a verb named `name`, in its words,
    or None. A `Verb` subclass is checked when it is defined, so `python3 -m unittest`
    (and build.sh, before componentize-py) says it: `Py_Click` passed the tests and a
    ~50 s build, and only `verbs add` refused it."""
    shaped = (
        isinstance(name, str)
        and len(name.encode("utf-8")) <= 64
        and re.fullmatch(r"[a-z][a-z0-9-]*", name) is not None
        and not name.endswith("-")
        and "--" not in name
    )
    if not shaped:
        why = f"the verb names itself `{name}`; {VERB_NAME_RULE}"
    elif name in HOST_VERBS:
        why = (
            f"the verb names itself `{name}`, a word `mur devtools` answers itself: "
            "a verb by that name could not be called"
        )
    elif name == "index":
        why = (
            f"the verb names itself `{name}`, the name of the verb directory's own index: "
            "a verb by that name would be taken for it"
        )
    else:
        return None
    return f"{why}; `mur devtools verbs add` would refuse it"


def positional(name, help, kind="text", key="", option="", choices=(), **bounds):
    """A required positional, shown as `<name>`; with `option` (its placeholder),
    also given as `--name VALUE` (`click --selector '#btn-inc'` for `click
    '#btn-inc'`). Given both ways, it is refused as given twice. `choices` are a
    `choice` positional's words, as `option`'s are; `bounds` an `integer`, `count` or
    `number` positional's, as `option`'s are."""
    return Param(name, help, kind, choices=choices, key=key, option=option, **bounds)


def selector(help):
    """`<selector>`, sent as `selector`: the element a verb works on; also taken
    as `--selector S`, as the standard verbs take theirs."""
    return positional("selector", help, kind="selector", option="S")


def flag(name, help, key="", send=True):
    """`--name`, sent as `true` when given; `send=False` keeps it out of the
    arguments (a switch of what `shape` prints, `args["name"]` is still True)."""
    return Param(name, help, "flag", key=key, send=send)


def option(name, value_name, help, kind="text", choices=(), key="", send=True, word=False, **bounds):
    """`--name VALUE`; `kind` says what the value is and how it is sent:
    `integer`, `count` (an integer 0 or more, the Rust kit's `Kind::Count`) and
    `number` as numbers, `json` parsed, `output-path` (a file the verb writes, `-`
    for stdout) and `milliseconds` never. `args[name]` gives it typed alike
    (`integer`, `count` and `milliseconds` an int; see `Args`). `word=True` takes it as a
    lone word too (`state '#count'` for `state --selector '#count'`): only for a
    verb without positionals, and only the word a usage error would otherwise
    answer with "did you mean `--name WORD`?" (`tree '#x'`, but not `tree main`
    where `--window` may be meant). Given both ways, it is refused as given twice.
    `bounds` hold an `integer`, `count` or `number` value as a tool's schema does:
    `minimum=1, maximum=100`, `exclusive_minimum=0`; one past them is refused before
    any call, typed or in `--args`, in a derived verb's words ("`--limit` is out of
    range: an integer from 1 to 100, got `500`")."""
    return Param(name, help, kind, value_name, choices, key, send, word=word, **bounds)


TIMEOUT = option("timeout", "MS", "let the call take up to MS milliseconds", "milliseconds")
"""`--timeout MS`, which every verb accepts: the call's time bound, never sent."""

WHOLE_NAMES = ("args", "all-args", "all-all-args")
"""The names `--args JSON` takes (`Verb._whole`): the first the verb does not declare
itself, as a derived verb's (`args`, else `all-args`…)."""

WHOLE_HELP = "the whole arguments object, as JSON; options given beside it override its fields"
"""The help of `--args JSON`, a derived verb's words for it: the host adds what `@FILE`
and `-` are, as it does for every JSON option, and reads them."""


def _is_whole(param):
    """Whether `param` is the option of the whole arguments object (`Verb._whole`)."""
    return param.kind == "json" and param.help == WHOLE_HELP and param.name in WHOLE_NAMES


def unusable(positionals, options):
    """What these params declare that a command line could not use or the kit
    refuses, or None, saying whose rule it breaks. `mur devtools verbs add`
    refuses an option name that is not a letter or a digit, then letters,
    digits, `-`, `_` or `.` (empty, `--clear` with its dashes, `a b`), a
    positional with no name (only spaces), two positionals or two options of one
    name, and an option `help` (the host's `-h, --help`). The kit refuses more,
    as its own rules, which `verbs add` would let through: a positional name that
    starts with `-` or holds a space (shown as `<name>`, it would read as an
    option or as two words in a usage line), an option `timeout` (the kit's own
    `--timeout MS`). A `Verb` subclass is checked when it is defined, so
    `python3 -m unittest` says so."""
    found = _unusable(positionals, options)
    return None if found is None else found[0]


def _unusable(positionals, options):
    """`unusable`'s reason, and the param it is about (the second of two of one
    name), whose place a refusal names; or None."""

    def named(name):
        return f"named `{name}`" if name else "with an empty name"

    host = _host
    seen = set()
    for param in positionals:
        name = param.name
        if not isinstance(name, str) or not name.strip():
            return host("a positional with no name for its usage to show"), param
        if name.startswith("-") or any(c.isspace() for c in name):
            return (
                f"positional {named(name)}, which the kit refuses (`mur devtools verbs add` would "
                f"not): shown as `<{name}>`, it reads as an option or as two words in a usage line; "
                "a positional's name does not start with `-` and holds no space"
            ), param
        if name in seen:
            return host(f"two positionals named `{name}`"), param
        seen.add(name)
    seen = set()
    for param in options:
        name = param.name
        refusal = _name_refusal(name)
        if refusal == "host":
            return host(
                f"option {named(name)}, which no command line can give: an option's name starts with a "
                "letter or a digit and holds only letters, digits, `-`, `_` and `.`"
            ), param
        if refusal is not None:
            return (
                f"option {named(name)}, which the kit refuses (`mur devtools verbs add` may take it): "
                f"it cannot tell whether U+{ord(refusal):04X} is a letter or a digit as mur does (a mark "
                "or a symbol Python's Unicode tables leave open); an option's name starts with a letter "
                "or a digit and holds only letters, digits, `-`, `_` and `.`"
            ), param
        if name in seen:
            return host(f"two options named `{name}`"), param
        seen.add(name)
        if name == "help":
            return host("option `help`, which is the host's own `-h, --help`"), param
        if name == TIMEOUT.name:
            return "option `timeout`, which the kit declares for every verb (`--timeout MS`)", param
    found = _alternatives_unusable(positionals, options)
    return None if found is None else (f"{found[0]}, which the kit refuses", found[1])


def _alternatives_unusable(positionals, options):
    """What is wrong with the second forms declared (`positional(option=…)`,
    `option(word=True)`), if anything, as the Rust kit says it, and the param it is about."""
    names = {p.name for p in options}
    for param in positionals:
        if not param.option:
            continue
        name = param.name
        if _name_refusal(name) is not None or name in ("timeout", "help"):
            return f"positional `<{name}>` also given as `--{name}`, an option no verb can take", param
        if name in names:
            return f"positional `<{name}>` also given as `--{name}`, an option of its own besides", param
    for param in options:
        if not param.word:
            continue
        if param.kind == "flag":
            return f"flag `--{param.name}` also given as a word, which a flag has no value for", param
        if positionals:
            return f"option `--{param.name}` also given as a word beside positionals, which the word would fill", param
    return None


def _host(why):
    """`why`, said to be `mur devtools verbs add`'s rule."""
    return f"{why}; `mur devtools verbs add` would refuse it"


def unkept(positionals, options, waits):
    """What `mur devtools verbs add` refuses of the choices and the wait these declare
    (beyond what `unusable` and `unusable_waits` judge), or None: a `choice` with no
    choices, which would refuse every value; choices on another kind, never held to;
    a wait (`Waits`) on the key one of the params is sent under, unless that param is
    an `integer` or `count` one (or `--timeout`): the host sets the wait's argument to a number of
    milliseconds, so each call sent a number for a text, or the wait did nothing; and a
    `milliseconds` value is never sent, so the user's `--timeout-ms 1000` was dropped
    and the tool waited what `--timeout` gave it. A `send=False` param is declared to
    `verbs add` as its kind: it cannot know the param is not sent.
    The key is `verbs add`'s rule, compared exactly: an option's name in camelCase (an
    ASCII capital for each word's first letter), a positional's name (not its `key`).
    Judged on the params `describe` declares, in the order `verbs add` reads them."""
    found = _unkept(positionals, options, waits)
    return None if found is None else found[0]


def _unkept(positionals, options, waits):
    """`unkept`'s reason, and the param or `Waits` it is about; or None. The wording
    is `verbs add`'s (mur's crates/verbs/src/spec.rs, `unkept_choices` and
    `wait_on_words`): it must match it word for word, as the Rust and JavaScript kits'
    copies must."""
    forms = [p for p in positionals if p.option]
    declared = [(p, False) for p in [*positionals, *(o for o in options if o.word)]]
    declared += [(p, True) for p in [*options, *forms, TIMEOUT]]

    def named(param, option):
        return f"option `--{param.name}`" if option else f"positional `<{param.name}>`"

    for param, option in declared:
        if param.kind == "choice" and not param.choices:
            return _host(
                f"{named(param, option)} of kind `choice` with no choices, which would refuse every "
                "value: give it its choices, or another kind"
            ), param
        if param.kind != "choice" and param.choices:
            return _host(
                f"choices for {named(param, option)}, of kind `{_hosts_kind(param.kind)}`: only a `choice` param is "
                "held to its choices; make it kind `choice`, or leave out its choices"
            ), param
    if not isinstance(waits, Waits):
        return None
    for param, option in declared:
        if (_hosts_camel_case(param.name) if option else param.name) != waits.argument:
            continue
        if param.kind in ("integer", "count") or (
            option and param.name == TIMEOUT.name and param.kind == "milliseconds"
        ):
            return None
        if param.kind == "milliseconds":
            shown = f"--{param.name}" if option else f"<{param.name}>"
            return _host(
                f"a wait (`{WAITS_SECTION}`) on `{waits.argument}`, the key its {named(param, option)} "
                "of kind `milliseconds` would be sent under, but a milliseconds value is never sent: "
                f"the wait's value is the verb's own `--timeout MS`; drop `{shown}`, or give it kind `integer`"
            ), waits
        return _host(
            f"a wait (`{WAITS_SECTION}`) on `{waits.argument}`, the argument its {named(param, option)} "
            f"of kind `{_hosts_kind(param.kind)}` is sent as: the host sets a wait's argument to a number of "
            "milliseconds, so it must be a key no param of the verb declares, or an `integer` param's"
        ), waits
    return None


def _hosts_camel_case(name):
    """`name` in camelCase as `verbs add` judges it (`wait-idle` as `waitIdle`): only an
    ASCII letter is made a capital, where `camel_case` capitalizes any (`a-é` as `aÉ`)."""
    first, *rest = name.split("-")
    return first + "".join(word[:1].upper() + word[1:] if word[:1] in string.ascii_lowercase else word for word in rest)


def _name_refusal(name):
    """None where `name` can name an option, by mur's rule (Rust's
    `char::is_alphanumeric`: a letter or a digit first, then letters, digits, `-`,
    `_` or `.`); `"host"` where mur refuses it too; else the first character the
    kit cannot judge. Python's `str.isalnum` takes no character mur refuses, but
    leaves out the marks Unicode counts as letters (`ि` and `ं` in `हिंदी`): the
    kit takes those its names say are (a vowel sign, an anusvara, …), and cannot
    judge other marks and symbols (`Ⓐ` is a letter to mur), nor a character newer
    than Python's Unicode tables."""
    if not isinstance(name, str) or not name:
        return "host"
    unsure = None
    for at, c in enumerate(name):
        if c.isalnum() or (at > 0 and c in "-_.") or _alphabetic_mark(c):
            continue
        if c.isascii() or _category(c) not in ("Mn", "Mc", "So", "Cn"):
            return "host"
        unsure = unsure or c
    return unsure


_ALPHABETIC_MARKS = ("VOWEL SIGN", "ANUSVARA", "SUBJOINED", "CONSONANT SIGN", "MEDIAL", "AU LENGTH")
"""Words in the names of marks that Unicode counts as letters (Other_Alphabetic),
and mur with it: every mark so named is one, whatever its script."""


def _alphabetic_mark(c):
    if c.isascii():
        return False
    import unicodedata  # only for a name beyond ASCII

    return unicodedata.category(c) in ("Mn", "Mc") and any(
        word in unicodedata.name(c, "") for word in _ALPHABETIC_MARKS
    )


def _category(c):
    import unicodedata

    return unicodedata.category(c)


@dataclass
class Call:
    """What `parse` makes of argv: a call of the verb's tool."""

    arguments: dict
    timeout_ms: object = None
    writes: list = field(default_factory=list)
    state: str = "{}"


@dataclass
class FileWrite:
    path: str
    contents: bytes


@dataclass
class Output:
    """What `shape` prints (`stdout`: str or bytes), the files it writes
    (only paths of `output-path` options the user gave), and the notes `mur`
    prints on stderr after stdout (lines of text; scripts never see them)."""

    stdout: object = b""
    files: list = field(default_factory=list)
    notes: list = field(default_factory=list)


class Args:
    """Argv checked against a verb's params: `args["selector"]`, `args["text"]`
    (None when not given), `args["clear"]` (True when the flag was given). A value
    is of its kind's type, as it is sent: `integer` and `count` an int (`args["times"]`
    is 3, not "3"), `number` an int or a float, `milliseconds` an int; the other kinds
    give the text typed (`json` too: `json.loads` it)."""

    def __init__(self, values, timeout_ms=None):
        self.values = dict(values)
        self.timeout_ms = timeout_ms

    def __getitem__(self, name):
        return self.values.get(name)

    def __contains__(self, name):
        return name in self.values

    def __repr__(self):
        return f"Args({self.values!r})"


class Verb:
    """Subclass it: set the description and params; override `arguments` and
    `shape` when needed. `usage` may stay empty: the kit composes it (`_usage`)."""

    name = ""
    tool = ""
    summary = ""
    usage = ""
    details = ""
    examples = ()
    positionals = ()
    options = ()
    waits = None
    """A `Waits` when the tool waits on a bound of its own, else None."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if (why := unusable_name(cls.name)) is not None:
            raise DeclarationError(why)
        found = _unusable(cls.positionals, cls.options)
        if found is None and (why := unusable_waits(cls.waits)) is not None:
            found = why, cls.waits
        if found is None:
            found = _unkept(cls.positionals, cls.options, cls.waits)
        if found is not None:
            why, declared = found
            # Where the param (or `Waits`) at fault was made: the class's line otherwise.
            where = getattr(declared, "where", None)
            raise DeclarationError(f"verb `{cls.name}` declares {why}", where)

    def arguments(self, args):
        """The tool's arguments object; by default each param under its key."""
        sent = {}
        for param in self._params():
            value = args[param.name]
            if value is None or not param.send or param.kind in ("output-path", "milliseconds"):
                continue
            sent[param.key or camel_case(param.name)] = _sent_value(param, value)
        return sent

    def shape(self, result, args, pretty):
        """What to print for a result (a dict): str, bytes or an `Output`; by
        default the result's payload as one line of JSON."""
        return json_line(payload(result), pretty)

    # The plain-Python face of the verb, which `export` wraps and tests call.

    def describe(self):
        """`info`, as a dict of the WIT record's fields."""

        def described(param, required):
            return {
                "name": param.name,
                "value_name": param.value_name,
                "kind": _hosts_kind(param.kind),
                "help": param.help,
                "required": required,
                "repeatable": False,
                "choices": list(param.choices),
            }

        def lone_word(param):
            which = "" if _takes_any_word(self.options, param) else (
                f", where {param.value_name} starts with `#` or `[`"
            )
            help = f"the same as `--{param.name} {param.value_name}`{which}"
            return {**described(param, False), "value_name": "", "help": help}

        def option_form(param):
            if any(p.name == param.name and p.option for p in self.positionals):
                return {**described(param, False), "help": f"the same as `<{param.name}>`"}
            if param is TIMEOUT and self.waits is not None:
                # It bounds the tool's wait too (see `parse`), as the Rust kit says it.
                help = f"let the wait (default: {self.waits.default_ms}) and the call take up to MS milliseconds"
                return {**described(param, False), "help": help}
            return described(param, False)

        return {
            "name": self.name,
            "tool": self.tool,
            "summary": self.summary,
            "usage": self.usage if self.usage.strip() else _usage(self.name, self.positionals, self.options),
            "details": self.details,
            "examples": list(self.examples),
            "positionals": [described(p, True) for p in self.positionals]
            + [lone_word(p) for p in self.options if p.word],
            "options": [option_form(p) for p in self._every_option()],
        }

    def parse(self, argv):
        """A `Call`, or None for a help request; raises `Error` for bad argv."""
        argv = list(argv)
        try:
            args = self._check(argv)
        except Error:
            if "--help" in _before_dashes(argv) or "-h" in _before_dashes(argv):
                return None
            raise
        if args is None:
            return None
        arguments = self.arguments(args)
        if not isinstance(arguments, dict):
            raise TypeError(f"`arguments` must return a dict, not {type(arguments).__name__}")
        if self.waits is not None and args.timeout_ms is not None:
            # `--timeout MS` bounds the tool's wait too, unless `arguments` set it.
            arguments.setdefault(self.waits.argument, args.timeout_ms)
        whole = self._whole()
        if whole is not None and args[whole.name] is not None:
            # `--args JSON`, as a derived verb takes it: the options given beside it
            # override its fields.
            given = json.loads(args[whole.name])
            arguments = {**{k: v for k, v in given.items() if k not in arguments}, **arguments}
        writes = [
            args[p.name]
            for p in self.options
            if p.kind == "output-path" and args[p.name] not in (None, "-")
        ]
        return Call(json.dumps(arguments), args.timeout_ms, writes, json.dumps(args.values))

    def render(self, result, state, pretty):
        """Shape the JSON text of a result, with the state `parse` returned:
        an `Output` whose stdout is bytes; raises `Error` for a failure."""
        try:
            values = json.loads(state)
            value = json.loads(result)
        except ValueError as error:
            raise Error(f"the tool result or the output state is not JSON: {error}") from None
        args = Args(values, values.get("timeout"))
        shaped = self.shape(value, args, pretty)
        if not isinstance(shaped, Output):
            shaped = Output(shaped)
        stdout = _bytes(shaped.stdout, "stdout")
        files = []
        for written in shaped.files:
            if not isinstance(written, FileWrite):
                written = FileWrite(*written)
            declared = [values.get(p.name) for p in self.options if p.kind == "output-path"]
            if written.path not in declared:
                raise Error(
                    f"`shape` may write only a path the user gave to an output-path option, "
                    f"not `{written.path}`"
                )
            files.append(FileWrite(written.path, _bytes(written.contents, written.path)))
        notes = list(shaped.notes or [])
        if not all(isinstance(note, str) for note in notes):
            raise Error("`shape` returned notes that are not all str")
        return Output(stdout, files, notes)

    def _params(self):
        return [*self.positionals, *self.options]

    def _every_option(self):
        """Every option a command line may give: the ones declared, the option form
        of each positional that has one (`positional(option=…)`) and `--timeout`.
        The one list the parser, the help and "did you mean" read."""
        forms = [
            dataclasses.replace(p, value_name=p.option, option="")
            for p in self.positionals
            if p.option
        ]
        whole = self._whole()
        return [*self.options, *forms, TIMEOUT, *([] if whole is None else [whole])]

    def _whole_field(self, values, param):
        """`(shown, word)` of positional `param`'s field in `--args JSON`, if it was
        given with one: the word it stands for (a string's text, a number's or a JSON
        value's, a boolean's for a choice: `{"on": true}` for the choice `true`), named
        as mur names a field of `--args`. Raises `Error` for a value no word of its kind
        is."""
        whole = self._whole()
        if whole is None or values.get(whole.name) is None:
            return None
        given = json.loads(values[whole.name])
        key = param.key or camel_case(param.name)
        if key not in given:
            return None
        value, shown = given[key], f"`{key}` in `--{whole.name}`"
        if param.kind == "json":
            return shown, json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        if isinstance(value, str):
            return shown, value
        if param.kind in ("integer", "count", "number") and isinstance(value, (int, float)) \
                and not isinstance(value, bool):
            return shown, json.dumps(value)
        # The word a boolean is written as, the same in every kit (a number's is not: `1.0`).
        if param.kind == "choice" and isinstance(value, bool):
            return shown, json.dumps(value)
        raise Error(f"{shown} must be a string, got `{json.dumps(value, separators=(',', ':'))}`")

    def _check_whole_bounds(self, values):
        """Each option with bounds not given, held to them where `--args` gives its key a
        number, as a derived verb holds a field of `--args` (`_check_bounds`)."""
        whole = self._whole()
        if whole is None or values.get(whole.name) is None:
            return
        given = json.loads(values[whole.name])
        for param in self.options:
            key = param.key or camel_case(param.name)
            value = given.get(key)
            integral = isinstance(value, int) or param.kind == "number" and isinstance(value, float)
            if param.name not in values and integral and not isinstance(value, bool):
                _check_bounds(param, f"`{key}` in `--{whole.name}`", json.dumps(value))

    def _whole(self):
        """`--args JSON`, the tool's whole arguments object, which every verb takes as a
        derived verb does: named `all-args` when the verb has an option `args` of its
        own, as a derived verb's is when its tool has a property `args`."""
        taken = {p.name for p in self.options} | {p.name for p in self.positionals if p.option}
        name = next((n for n in WHOLE_NAMES if n not in taken), None)
        return None if name is None else option(name, "JSON", WHOLE_HELP, "json", send=False)

    def _check(self, argv):
        """Args, or None for `--help`; raises `Error` for anything wrong."""
        read = self._read(argv)
        return None if read is None else Args(read.values, read.timeout_ms)

    def _read(self, argv):
        """`_Read`, or None for `--help`; raises `Error` for anything wrong."""
        options = {p.name: p for p in self._every_option()}
        values, given, words, timeout_ms = {}, [], [], None
        at = 0
        while at < len(argv):
            word = argv[at]
            at += 1
            if word == "--":
                words.extend(argv[at:])
                break
            if word in ("--help", "-h"):
                return None
            if not word.startswith("-") or word == "-":
                words.append(word)
                continue
            if not word.startswith("--"):
                if len(word) > 2 and all(letter in "vq" for letter in word[1:]):
                    # The host takes `-vq` after a verb's name too: this reaches a verb
                    # natively, or from an older `mur`, which took `-v` and `-q` only apart.
                    raise Error(_host_cluster_refused(word))
                text = len(words) < len(self.positionals) and self.positionals[len(words)].kind == "text"
                host = _after_host_letters(word)
                if host is not None:
                    # mur's `-v` or `-q`, then something else: that is what is wrong, not
                    # `-v`, which is valid (`_host_letters_then`).
                    unknown, meant = _host_letters_then(word, host, options, text)
                else:
                    # Only `-h` alone is help: `-hello` is an unknown option, named whole,
                    # as is a number (`-15`, not `-1`).
                    whole = word.startswith("-h") or word[1:2] in string.digits
                    unknown = f"unknown option `{word if whole else word[:2]}`"
                    # `-s` for the one option that starts with `s` (`--selector`), where
                    # no text still to fill may start with a dash. Never for a number:
                    # `-1` is no short `--1st`, as in the Rust kit, and as a derived verb
                    # reads it (a value, never an option).
                    short = len(word) == 2 and not text and not whole
                    meant = _short_meant(word, options) if short else None
                if meant is not None:
                    raise Error(f"{unknown}; did you mean `--{meant}`?")
                raise Error(self._after_dashes(argv, at - 1, len(words), unknown))
            name, has_value, value = word[2:].partition("=")
            param = options.get(name)
            if param is None and has_value and name in HOST_OPTIONS:
                # A host option by its very name reaches a verb with a value only where
                # the host did not take it: a flag the host takes no value for
                # (`--pretty=false`), or any of them in a native test or from an older
                # `mur` (`--project=App.csproj`).
                if name in HOST_FLAGS:
                    raise Error(f"`--{name}` takes no value, got `{value}`")
                raise Error(f"`--{name}` is mur's: give it before the verb's name")
            if param is None:
                meant = _option_meant(name, self.positionals, options)
                if meant is not None:
                    command = self._positional_meant(argv, at - 1, name)
                    if command is not None:
                        meant = f"{meant}: did you mean `{command}`?"
                    raise Error(f"unknown option `--{name}`; {meant}")
                unknown = f"unknown option `--{name}`"
                raise Error(self._after_dashes(argv, at - 1, len(words), unknown))
            if name in values:
                raise Error(f"the argument `{_named(param)}` cannot be used multiple times")
            if param.kind == "flag":
                if has_value:
                    raise Error(f"`--{name}` takes no value, got `{value}`")
                values[name] = True
                given.append((name, None))
                continue
            if not has_value:
                if at == len(argv):
                    raise Error(_needs_value(f"`{_named(param)}`"))
                value = argv[at]
                at += 1
                # The next word one of the verb's options or mur's: the value was left
                # out (`--selector --pretty`); written inline it is a value
                # (`--selector=--pretty`).
                option = value[2:].partition("=")[0] if value.startswith("--") else ""
                if option and (option in options or option in HOST_OPTIONS):
                    raise Error(
                        f"{_needs_value(f'`{_named(param)}`')}, and `--{option}` is an option "
                        f"(a value that begins with `--` is written `--{name}=VALUE`)"
                    )
            values[name] = _typed(param, _checked(param, f"`--{name}`", value))
            given.append((name, value))
            if name == TIMEOUT.name:
                timeout_ms = _millis(value)
        positionals = []
        text_last = bool(self.positionals) and self.positionals[-1].kind == "text"
        for index, param in enumerate(self.positionals):
            as_option = next((v for n, v in given if n == param.name and param.option), None)
            if as_option is not None:
                # The option form: moved into its place. A word more than the positionals
                # after it take is the same argument typed both ways, unless it is more
                # words of a text (then only a selector that starts like one).
                given = [(n, v) for n, v in given if n != param.name]
                later = len(self.positionals) - index - 1
                twice = not text_last or (
                    param.kind == "selector" and bool(words) and words[0].startswith(("#", "["))
                )
                if len(words) > later and twice:
                    raise Error(
                        f"`<{param.name}>` given twice: as `{words[0]}` and as "
                        f"`--{param.name} {_shell_word(as_option)}`"
                    )
                positionals.append((param, as_option))
                continue
            # Fewer words than the positionals still to fill: one whose key `--args`
            # gives is taken from there, as a derived verb takes a required property
            # (`click --args '{"selector": "#x"}'`); the words fill the others.
            unfilled = sum(
                1 for p in self.positionals[index:]
                if not (p.option and any(n == p.name for n, _ in given))
            )
            field = self._whole_field(values, param) if len(words) < unfilled else None
            if field is not None:
                shown, word = field
                values[param.name] = _typed(param, _checked(param, shown, word))
                positionals.append((param, word))
                continue
            if not words:
                raise Error(f"missing argument `<{param.name}>`")
            word = words.pop(0)
            values[param.name] = _typed(param, _checked(param, f"`<{param.name}>`", word))
            positionals.append((param, word))
        self._check_whole_bounds(values)
        read = _Read(values, timeout_ms, positionals, given)
        # An option's lone word (`state '#count'`), never one that reads as an option
        # or stdin; a word after it is one too many, as after a positional. The word it
        # would have been beside that option given (`state '#a' --selector '#b'`) is the
        # argument given twice, as a positional's is beside its option form.
        if words and not words[0].startswith("-"):
            meant = self._meant(words[0], given)
            if meant is not None and meant.word:
                word = words.pop(0)
                values[meant.name] = _typed(meant, word)
                given.append((meant.name, word))
            else:
                twice = self._word_given_too(words[0], given)
                if twice is not None:
                    raise Error(twice)
        if words:
            raise Error(self._unexpected(words, positionals, given))
        return read

    def _corrected(self, moved, name, word):
        """The command this verb would run with `moved` (argv with a word moved where
        it belongs), when `moved` is right and gives positional `<name>` that `word`:
        the command a hint names, so it is one that works."""
        if not self.name:
            return None
        try:
            read = self._read(moved)
        except Error:
            return None
        if read is None or dict((p.name, w) for p, w in read.positionals).get(name) != word:
            return None
        return _command(self.name, read.positionals, read.given)

    def _after_dashes(self, argv, at, filled, unknown):
        """`unknown` (an unknown option's message) with, where the positional still to
        fill is text, or a number that one of kind `integer`, `count` or `number` takes
        (`-1`; `-0` for a count), a hint to give the word after `--`, as the command it
        would make when the rest of argv is right: `mur devtools type '#x' -- -5`. A
        number it refuses (out of range: a count's `-1`) is told why instead, as after
        `--`, as the Rust kit tells its count's.
        `at` is the word's place in `argv`; `filled`, how many positionals the words
        before it gave."""
        if filled >= len(self.positionals):
            return unknown
        pos = self.positionals[filled]
        word, rest = argv[at], argv[at + 1:]
        numeric = {"integer": _INTEGER, "count": _INTEGER, "number": _NUMBER}.get(pos.kind)
        if numeric is not None and numeric.fullmatch(word):
            _checked(pos, f"`<{pos.name}>`", word)
        elif pos.kind != "text":
            return unknown
        told = f"{unknown}; to give it as `<{pos.name}>`, put it after `--`"
        if "--" in rest:
            return told
        command = self._corrected([*argv[:at], *rest, "--", word], pos.name, word)
        return told if command is None else f"{told}: did you mean `{command}`?"

    def _positional_meant(self, argv, at, name):
        """For `--name VALUE` (or `--name=VALUE`) at `at` in `argv`, where the verb takes
        `<name>` only as a word: the command with VALUE written as that word, when the
        rest of argv is right (`mur devtools switch todo` for `switch --component todo`)."""
        pos = _positional_named(self.positionals, name)
        if pos is None:
            return None
        name = pos.name
        _, has_value, value = argv[at].partition("=")
        if has_value:
            moved = [*argv[:at], value, *argv[at + 1:]]
        elif at + 1 < len(argv):
            value = argv[at + 1]
            moved = [*argv[:at], *argv[at + 1:]]
        else:
            return None
        return self._corrected(moved, name, value)

    def _meant(self, word, given):
        """The option a stray `word` was likely meant for: for a JSON object, the verb's
        JSON option (`--args`); and when the verb takes no positionals, one whose
        choices hold it, else its selector option for a word that starts like one
        (`#id`, `[attr]`), else its output path for a word that looks like a path
        (`shot.png`, `out/x`), else its one option (not a choice) naming a thing of the
        app. Never an option given already or one that would refuse the word."""
        taken = {name for name, _ in given}

        def fits(param):
            return param.name not in taken and _fits(param, word)

        try:
            an_object = isinstance(json.loads(word), dict)
        except (ValueError, RecursionError):
            an_object = False
        jsons = [p for p in self.options if p.kind == "json"]
        json_option = next((p for p in jsons if p.name == "args"), None) or (
            jsons[0] if len(jsons) == 1 else None
        )
        if an_object and json_option is not None and fits(json_option):
            return json_option
        if self.positionals:
            return None
        things = [p for p in self.options if p.send and p.kind in _THINGS]
        meant = (
            next((p for p in things if word in p.choices), None)
            or next((p for p in things if p.kind == "selector" and word.startswith(("#", "["))), None)
            or next((p for p in self.options if p.kind == "output-path" and _looks_like_path(word)), None)
            or _the_only_thing(self.options)
        )
        return meant if meant is not None and fits(meant) else None

    def _word_given_too(self, word, given):
        """For a stray `word` beside an option given that also takes a lone word
        (`option(word=True)`): the refusal of that argument given twice, where the
        word is the one the option would have taken alone (`_meant`, the option not
        given): `state '#a' --selector '#b'`, as `click '#a' --selector '#b'` is told.
        None for a word no option would have taken (`tree main --selector '#a'`,
        which may mean `--window main`)."""
        for at, (name, value) in enumerate(given):
            param = next((p for p in self.options if p.name == name and p.word), None)
            if param is None:
                continue
            meant = self._meant(word, given[:at] + given[at + 1:])
            if meant is not None and meant.name == name:
                return f"`<{name}>` given twice: as `{word}` and as `--{name} {_shell_word(value)}`"
        return None

    def _unexpected(self, extra, positionals, given):
        """`unexpected argument` (the first of `extra`, the words past the positionals),
        with what was likely meant: the words quoted as one where the last positional
        is text (`type '#x' 'buy milk'`), else the option of `_meant`."""
        word = extra[0]
        told = f"unexpected argument `{word}`"
        if positionals and positionals[-1][0].kind == "text":
            last, text = positionals[-1]
            told = f"{told}; quote the words of `<{last.name}>` as one"
            if not self.name:
                return told
            quoted = [*positionals[:-1], (last, " ".join([text, *extra]))]
            return f"{told}: did you mean `{_command(self.name, quoted, given)}`?"
        shown = _shell_word(word)
        meant = self._meant(word, given)
        if meant is not None:
            return f"{told}; did you mean `--{meant.name} {shown}`?"
        # `tree main`: a window's name, or a selector of that type; `tree ':text("x")'`,
        # or `main` beside `--selector`: the one option it fits.
        readings = [f"`--{name} {shown}`" for name in self._readings(word, given)]
        if len(readings) in (1, 2):
            return f"{told}; did you mean {' or '.join(readings)}?"
        return told

    def _readings(self, word, given):
        """The options a stray `word` fits where nothing says which it is for (see
        `_meant`): of a verb without positionals, its options (not choices) naming a
        thing of the app, not given already, that take the word; none for a word that
        looks like a file path (`b.png`: a path given twice). A name (a window's, a
        component's) never holds a selector's marks (`_holds_selector_marks`):
        `:text("x")` is read as no window."""
        if self.positionals or _looks_like_path(word):
            return []
        taken = {name for name, _ in given}
        return [
            p.name
            for p in self.options
            if p.send and p.kind in _THINGS and p.kind != "choice"
            and not (p.kind == "name" and _holds_selector_marks(word))
            and p.name not in taken and _fits(p, word)
        ]


@dataclass
class _Read:
    """Argv as `_read` checked it: the values by name, `--timeout`, the positionals
    as `(param, word)` and the options given as `(name, value or None)`, in order."""

    values: dict
    timeout_ms: object
    positionals: list
    given: list


def _command(verb, positionals, given):
    """A command line for verb `verb`, each word as a shell reads it back: the
    positionals, then the options; from the first positional that starts with `-`,
    after the options and `--` (`mur devtools type '#x' --clear -- -5`)."""
    dashed = [word.startswith("-") and word != "-" for _, word in positionals]
    split = dashed.index(True) if True in dashed else len(positionals)
    words = ["mur", "devtools", _shell_word(verb)]
    words += [_shell_word(word) for _, word in positionals[:split]]
    for name, value in given:
        words.append(f"--{name}")
        if value is not None:
            words.append(_shell_word(value))
    if split < len(positionals):
        words.append("--")
        words += [_shell_word(word) for _, word in positionals[split:]]
    return " ".join(words)


def _the_only_thing(options):
    """The verb's one option, not a choice, that names a thing of the app, if it has
    only one: the option any stray word may have been meant for."""
    unlisted = [p for p in options if p.send and p.kind in _THINGS and p.kind != "choice"]
    return unlisted[0] if len(unlisted) == 1 else None


def _takes_any_word(options, param):
    """Whether option `param`, also taken as a lone word, takes any word it would take
    as a value: it is `_the_only_thing`. Otherwise only a word that starts like a
    selector."""
    only = _the_only_thing(options)
    return only is not None and only.name == param.name


def _host_cluster_refused(word):
    """The refusal of `word`, a cluster of mur's `-v` and `-q` (`-vq`), with the words
    that work typed: each flag apart (`-vq`: `-v -q`), or once where one is repeated
    (`-vv`: mur refuses `-v -v` too, as it refuses `--verbose` twice)."""
    letters = word[1:]
    if len(set(letters)) < len(letters):
        return f"unknown option `{word}`; mur takes `-v` and `-q` once each"
    apart = " ".join(f"-{letter}" for letter in letters)
    return f"unknown option `{word}`; write mur's `-v` and `-q` apart: `{apart}`"


def _after_host_letters(word):
    """Of a word that starts with mur's short flags and goes on with anything else
    (`-vx`, `-vh`, `-v1`, `-v=x`, `-vé`), mur's flags (`-v`) and the rest (`x`, `h`,
    `1`, `=x`, `é`); else None."""
    letters = word[1:]
    rest = letters.lstrip("vq")
    at = len(letters) - len(rest)
    if at == 0 or not rest:
        return None
    return word[: at + 1], rest


def _host_letters_then(word, host, options, text):
    """The refusal of `word`, mur's flags and then something else (`host`, from
    `_after_host_letters`): what is wrong is named, never mur's valid `-v`. Raises the
    whole refusal, with what to type (`-vh`: `-v -h`, `-vvh` too, since mur takes each
    flag once); else the message and the option a lone letter stands for (`-vs`:
    `--selector`), if any. After mur's flags: a letter is named (`-x` in `-vx`); `h` and
    more, or a number, are named whole, as alone (`-hx` in `-vhx`, `-15` in `-v15`); `=`
    is a value, which mur's flags take none of (`-v=x`, as `--quiet=1`); a dash is no
    option's letter, so the word is named whole (`-v-`). `text`: whether the positional
    still to fill is text. As the Rust kit's `host_letters_then`."""
    flags, rest = host
    if rest == "h":
        once = "".join(dict.fromkeys(flags))
        if len(once) < len(flags):
            raise Error(f"unknown option `{word}`; mur takes `-v` and `-q` once each: `{once} -h`")
        raise Error(f"unknown option `{word}`; write mur's `{flags}` apart: `{flags} -h`")
    if rest.startswith("="):
        return f"`-{flags[-1]}` takes no value, got `{rest[1:]}`", None
    other = rest[0]
    if other == "-":
        return f"unknown option `{word}`", None
    number = other in string.digits
    named = rest if other == "h" or number else other
    unknown = f"unknown option `-{named}` in `{word}`"
    alone = len(rest) == 1
    return unknown, _short_meant(f"-{other}", options) if alone and not text and not number else None


def _short_meant(word, options):
    """The option `-letter` likely stands for: the one option whose name starts with
    that letter, if only one does. Not `-h` (help), `-v` or `-q` (mur's own)."""
    letter = word[1:]
    if letter in ("h", "v", "q"):
        return None
    names = [name for name in options if name.startswith(letter)]
    return names[0] if len(names) == 1 else None


def _holds_selector_marks(word):
    """Whether `word` holds a mark of a selector's syntax that no name holds (a
    window's, a component's: `main`, `todo`): `#` (an id), `[` (an attribute), `:`
    (`:text(…)`, `:nth(N)`), `>` (a child), `*` (any element) or white space (a
    descendant), as the Rust kit's `holds_selector_marks`. A plain word (`main`,
    `Button`, `.done`) may be either."""
    return any(mark in word for mark in "#[:>*") or any(c.isspace() for c in word)


def _usage(name, positionals, options):
    """The usage line of verb `name` (after `mur devtools`), which `describe` gives
    when the verb's `usage` is empty, as the Rust kit's `info::usage` composes it and
    the standard verbs show it: the name, each positional (`<selector>`), each option
    also taken as a lone word as that word (`[<selector>]`), then the other options.
    Each argument once, in its first form: not a positional's option form
    (`--selector S`), nor `--timeout MS`, which every verb takes; the help's options
    list both. (Left empty, mur composed the line from every option it was told of:
    `bump <selector> [--selector S] [--timeout MS]` beside the standard `click
    <selector>`.)"""
    words = [name, *(f"<{p.name}>" for p in positionals)]
    words += [f"[<{p.name}>]" for p in options if p.word]
    words += [f"[{_option_label(p)}]" for p in options if not p.word]
    return " ".join(words)


def _option_label(param):
    """`--name V` as mur labels an option in its help, so the usage line and the
    options list agree: a choice's placeholder that does not list its choices gives
    way to them (`--mode fast|slow`) when they are short; no placeholder is `VALUE`."""
    if param.kind == "flag":
        return f"--{param.name}"
    value = param.value_name or "VALUE"
    if param.kind == "choice" and param.choices and "|" not in param.value_name:
        listed = "|".join(_shell_word(choice) for choice in param.choices)
        value = listed if len(listed) <= _CHOICES_LABEL_CHARS else value
    return f"--{param.name} {value}"


_CHOICES_LABEL_CHARS = 40
"""The longest `a|b|c` mur shows a choice's choices as in its label."""


def _looks_like_path(word):
    """Whether `word` looks like a file path rather than a selector or a name: it
    holds a `/`, or ends in an extension of one to four letters or digits
    (`shot.png`), and does not start like a selector (`#id`, `[attr]`, `.class`)."""
    if word.startswith(("#", "[", ".")):
        return False
    stem, dot, extension = word.rpartition(".")
    extended = bool(dot) and bool(stem) and 1 <= len(extension) <= 4 and extension.isascii() \
        and extension.isalnum()
    return "/" in word or extended


def _option_meant(name, positionals, options):
    """What an unknown `--name` was likely meant as: the positional of that name
    (`--selector S` for `<selector>`), else the nearest of the verb's `options`,
    else the nearest host option (`--projct`), which the host takes after the verb's
    name too; both by the host's rule, case aside as mur's own hints are
    (`_caseless_nearest`: `--Selector` is `--selector`); None if nothing."""
    pos = _positional_named(positionals, name)
    if pos is not None:
        return f"write `<{pos.name}>` without `--{name}`"
    own = _caseless_nearest(name, options)
    # Not the host option of this very name, which is no typo of it.
    host = _caseless_nearest(name, [o for o in HOST_OPTIONS if o != name and o not in options])
    # The verb's own option where a host option is no nearer.
    meant = host if host and (not own or host[0] > own[0]) else own
    return None if meant is None else f"did you mean `--{meant[1]}`?"


def _positional_named(positionals, name):
    """The positional `--name` names, case aside, that is given only as a word: one
    that has an option form is among the options."""
    lower = name.lower()
    return next((p for p in positionals if not p.option and p.name.lower() == lower), None)


def _caseless_nearest(typed, words):
    """`(likeness, word)` of the word of `words` that `typed` is but for case (likeness
    1), else `_nearest` of the two in lower case: caps lock makes no other word. The
    host's rule (`caseless_meant` in mur's plugins/kit/src/nearest.rs), copied for the
    reason `_nearest` is."""
    lower = typed.lower()
    same = [word for word in words if word.lower() == lower]
    if len(same) == 1:
        return (1.0, same[0])
    folded = {}
    for word in words:
        folded[word.lower()] = word
    near = _nearest(lower, list(folded))
    return None if near is None else (near[0], folded[near[1]])


def _nearest(typed, words):
    """`(likeness, word)` of the word of `words` nearest to `typed`, if near enough:
    the host's rule for every "did you mean", `mur_core::nearest` in mur's
    crates/core/src/words.rs, copied because this kit is one Python file a verb
    vendors, so that its hints agree with the host's and with derived verbs'. Jaro
    above 0.7 (clap's bound), among the words at most a third of `typed`'s letters'
    edits away (at least one) or, three letters or more, starting or ending with it:
    Jaro alone finds short words alike that share a few letters (`fl` and `full`,
    `--to` and `--auto-full`). The last of equals."""
    edits = max(-(-len(typed) // 3), 1)
    core = typed.lstrip("-")
    long_enough = len(core) >= 3

    def near(word):
        affix = long_enough and (word.startswith(typed) or word.lstrip("-").endswith(core))
        return affix or _osa_distance(typed, word) <= edits

    best = None
    for word in words:
        if word == typed or not near(word):
            continue
        likeness = _jaro(typed, word)
        if likeness > 0.7 and (best is None or likeness >= best[0]):
            best = (likeness, word)
    return best


def _choice_meant(typed, choices):
    """The choice a refused `typed` was likely meant as: the one that differs from it
    only in case (`FULL` for `full`), else the `_nearest`. The host's rule for a
    derived verb's choice (`check_choice` in mur's crates/verbs/src/derived.rs),
    copied for the reason `_nearest` is."""
    same = [c for c in choices if c.lower() == typed.lower()]
    if len(same) == 1:
        return same[0]
    near = _nearest(typed, choices)
    return None if near is None else near[1]


HOST_OPTIONS = ("@host-options@",)
"""The host's long options (`mur devtools --help`), which the host takes after a
verb's name where the verb declares no option of that name: `mur devtools verbs
new` wrote in the list of the `mur` that made this project."""


HOST_FLAGS = ("auto", "auto-full", "pretty", "verbose", "quiet", "refresh")
"""The host options that take no value: only these are told they take none when
given one (`--pretty=false`)."""


_THINGS = ("text", "selector", "name", "choice", "integer", "count", "number")
"""The kinds whose value is a word of the app's: what a stray word may have been meant as."""


def _fits(param, word):
    """Whether `param` would take `word` as its value."""
    try:
        _checked(param, "", word)
    except (Error, ValueError):
        return False
    return True


def _jaro(a, b):
    """Jaro similarity, the measure `mur` (after clap) takes for "did you mean",
    written out: the kit is one file a verb vendors, with no package to install."""
    if a == b:
        return 1.0
    window = max(0, max(len(a), len(b)) // 2 - 1)
    taken = [False] * len(b)
    a_matched = []
    for i, c in enumerate(a):
        for j in range(max(0, i - window), min(len(b), i + window + 1)):
            if not taken[j] and b[j] == c:
                taken[j] = True
                a_matched.append(c)
                break
    m = len(a_matched)
    if m == 0:
        return 0.0
    b_matched = [c for c, hit in zip(b, taken) if hit]
    # Halved as whole numbers, as strsim (the host's and the Rust kit's Jaro) does.
    half_transpositions = sum(x != y for x, y in zip(a_matched, b_matched)) // 2
    return (m / len(a) + m / len(b) + (m - half_transpositions) / m) / 3


def _osa_distance(a, b):
    """The optimal string alignment distance (edits, a swap of neighbours being one),
    the host's measure beside Jaro, written out as `_jaro` is."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def _shell_word(word):
    """`word` as a shell reads it back: bare when plain, else in single quotes."""
    if word and set(word) <= set(string.ascii_letters + string.digits + "_.,/:=@%+-"):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def _before_dashes(argv):
    return argv[: argv.index("--")] if "--" in argv else argv


def _checked(param, shown, value):
    kind = param.kind
    _check_bounds(param, shown, value)
    if kind in ("selector", "name") and not value.strip():
        raise Error(f"{shown} must not be empty")
    if kind == "choice" and value not in param.choices:
        names = [f"`{c}`" for c in param.choices]
        listed = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)
        told = f"{shown} must be {listed}, got `{value}`"
        meant = _choice_meant(value, param.choices)
        raise Error(told if meant is None else f"{told}; did you mean `{meant}`?")
    if kind == "integer":
        if not _INTEGER.fullmatch(value):
            raise Error(f"{shown} needs an integer, got `{value}`")
        # Sent exactly only within what mur's JSON (serde_json) holds as an integer;
        # past it mur reads a float (rounded) or refuses the call as the verb's fault.
        # Past 20 digits without int(), which refuses 4301 and more (a ValueError).
        if len(value.lstrip("+-").lstrip("0")) > 20 or not _INTEGERS[0] <= int(value) <= _INTEGERS[1]:
            admits = f"an integer from {_INTEGERS[0]} to {_INTEGERS[1]}"
            raise Error(f"{shown} is out of range: {admits}, got `{value}`")
    if kind == "count":
        why = _uncounted(value)
        if why is not None:
            raise Error(f"{shown} {why}, got `{value}`")
    # `nan`, `inf` and `1e400` are floats, but no JSON: mur would refuse the call.
    if kind == "number" and not (_NUMBER.fullmatch(value) and math.isfinite(float(value))):
        raise Error(f"{shown} needs a number, got `{value}`")
    if kind == "json":
        try:
            why = _unreadable(json.loads(value))
        except ValueError as error:
            raise Error(f"{shown} is not valid JSON: {error}") from None
        except RecursionError:
            why = _TOO_DEEP
        if why is not None:
            raise Error(f"{shown} is not JSON mur reads: {why}")
        if _is_whole(param) and not isinstance(json.loads(value), dict):
            raise Error(f"{shown} must be a JSON object")
    if kind == "milliseconds":
        _check_millis(f"`{_named(param)}`" if shown.startswith("`--") else shown, value)
    if kind == "output-path" and not value:
        raise Error(f"{shown} needs a file path, or `-` for stdout")
    return value


# An integer and a number as mur reads them (Rust's `from_str` of `i64`, `u64` and
# `f64`: a derived verb's options, the Rust kit's counts): ASCII digits after at most
# one sign, a number's with a point and an exponent. Python's int() and float() take
# more, which mur and the Rust kit refuse: `1_000`, ` 12 ` (spaces), `١٢` (any
# Unicode digit).
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")

# A number of milliseconds as mur reads its own `--timeout MS` (the text trimmed, then
# Rust's `u64` `from_str`), as the Rust kit reads one: ASCII digits after at most a `+`
# (`+900`), white space around them allowed. The white space is Rust's (`str::trim`):
# str.strip() would take more (`\x1c`).
_MILLIS = re.compile(r"\+?[0-9]+")
_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
_MILLIS_MOST = 2**32 - 1
"""The most milliseconds `wit/verb.wit` carries (a `u32`)."""


def _named(param):
    """The option as mur's host names one of its own in an error (`--timeout <MS>`,
    `--pretty`), so that a mistake typed after the verb's name reads as it does before it."""
    if param.kind == "flag":
        return f"--{param.name}"
    return f"--{param.name} <{param.value_name or 'VALUE'}>"


def _needs_value(named):
    """What is said of an option typed without its value, or with an empty one where
    none can be empty: `--selector <S>` needs a value, the option named as mur names
    one in an error (`named`, `_named`; a positional as `<pause>`). The one wording of
    a missing value, mur's host's for its own options and the derived verbs' too
    (`needs_value` in mur's plugins/kit/src/argv.rs), so that one mistake reads alike
    wherever it is typed."""
    return f"{named} needs a value"


def _given_empty(named):
    """`_needs_value` of an option typed with an empty value (`--timeout=`, `--timeout ''`,
    a script's `"$UNSET"`): the word was typed, so it is said to be empty, in the host's
    words for its own options (`given_empty` in mur's plugins/kit/src/argv.rs)."""
    return f"{_needs_value(named)} (it was given empty)"


def _check_millis(named, value):
    """`value` held to `milliseconds`, refused in the words mur's host refuses its own
    `--timeout` in before the verb's name (`named`: `--timeout <MS>`, `<pause>`)."""
    if not value:
        raise Error(_given_empty(named))
    ms = _millis(value)
    if ms is None:
        why = f"`{value}` is not a whole number of milliseconds (e.g. `5000`)"
    elif ms == 0:
        why = "the bound must be at least 1 ms"
    elif ms > _MILLIS_MOST:
        why = f"the bound is at most {_MILLIS_MOST} ms (about 49 days)"
    else:
        return
    raise Error(f"invalid value `{value}` for {named}: {why}")


def _millis(value):
    """A `milliseconds` value's number, or None where it is none (`_MILLIS`); past
    `_MILLIS_MOST`, any number beyond it (int() refuses 4301 digits and more)."""
    text = value.strip(_SPACE)
    if not _MILLIS.fullmatch(text):
        return None
    digits = text.lstrip("+").lstrip("0")
    return int(digits or "0") if len(digits) <= 10 else _MILLIS_MOST + 1


_INTEGERS = (-(2**63), 2**64 - 1)
"""The integers mur's JSON reads exactly (serde_json's `i64` and `u64`)."""

_COUNTS_MOST = 2**64 - 1
"""The largest `count` (the Rust kit's `Kind::Count`, a `u64`)."""


def _uncounted(value):
    """Why `value` is no `count`, in the Rust kit's words for its `Kind::Count` (after
    the param's name, before the word), or None: an integer as mur reads one (`_INTEGER`,
    `-0` being 0) from 0 to `_COUNTS_MOST`. `-1` is told "at least 0", as a derived verb
    tells a schema's `"minimum": 0`; a number past the top, the whole range."""
    if not _INTEGER.fullmatch(value):
        return "needs a non-negative integer"
    digits = value.lstrip("+-").lstrip("0")
    if value.startswith("-") and digits:
        return "is out of range: an integer at least 0"
    # Past 20 digits without int(), which refuses 4301 and more (a ValueError).
    if len(digits) > 20 or int(digits or "0") > _COUNTS_MOST:
        return f"is out of range: an integer from 0 to {_COUNTS_MOST}"
    return None

def _bounds(param):
    """`(low, high)` of `param`'s bounds, each `(number, open)` or None (`open`: the
    number itself is out); of two on a side, the one that admits less, as a derived
    verb takes them."""
    def end(inclusive, exclusive, tighter):
        ends = [(n, o) for n, o in ((inclusive, False), (exclusive, True)) if n is not None]
        return tighter(ends) if ends else None

    low = end(param.minimum, param.exclusive_minimum, lambda ends: max(ends))
    high = end(param.maximum, param.exclusive_maximum, lambda ends: min(ends, key=lambda e: (e[0], not e[1])))
    return low, high


def _check_bounds(param, shown, value):
    """`value` held to `param`'s bounds (`_bounds`), refused as a derived verb refuses
    a value past its schema's, in its words: "`--delay` is out of range: an integer from
    0 to 2000, got `-5`". An integer past the kind (a count's `-1`, one past what JSON
    holds) is told the range within them, a count's from 0; a word no number is left to
    the kind's own check."""
    low, high = _bounds(param)
    kind = param.kind
    if low is None and high is None or kind not in ("integer", "count", "number"):
        return
    if kind == "number":
        if not (_NUMBER.fullmatch(value) and math.isfinite(float(value))):
            return
        n = _typed(param, value)
    elif not _INTEGER.fullmatch(value):
        return
    else:
        digits = value.lstrip("+-").lstrip("0")
        n = int(value) if len(digits) <= 20 else None
    if kind == "count" and low is None:
        low = (0, False)
    what = "a number" if kind == "number" else "an integer"
    if kind != "number" and (n is None or not _INTEGERS[0] <= n <= _INTEGERS[1]):
        # Past what JSON holds: the range JSON holds, within the bounds.
        low, high = low or (_INTEGERS[0], False), high or (_INTEGERS[1], False)
        raise Error(f"{shown} is out of range: {what} {_range_words(low, high)}, got `{value}`")
    past_low = low is not None and (n < low[0] or low[1] and n == low[0])
    past_high = high is not None and (n > high[0] or high[1] and n == high[0])
    if past_low or past_high:
        raise Error(f"{shown} is out of range: {what} {_range_words(low, high)}, got `{json.dumps(n)}`")


def _range_words(low, high):
    """A range in a derived verb's words: `from 0 to 2000`, `exactly 2`, `above 0 and at
    most 1`; each number as JSON writes it."""
    text = json.dumps
    if low is not None and high is not None and not low[1] and not high[1]:
        if low[0] == high[0]:
            return f"exactly {text(low[0])}"
        return f"from {text(low[0])} to {text(high[0])}"
    ends = []
    if low is not None:
        ends.append(f"{'above' if low[1] else 'at least'} {text(low[0])}")
    if high is not None:
        ends.append(f"{'below' if high[1] else 'at most'} {text(high[0])}")
    return " and ".join(ends)


_JSON_LEVELS = 127
"""The levels of arrays and objects mur reads in a verb's arguments (serde_json's limit)."""

_TOO_DEEP = f"arrays or objects nested deeper than {_JSON_LEVELS - 1} levels"


def _unreadable(value, depth=1):
    """Why mur could not read `value` sent under a key of the arguments object, or None
    (`depth`: the arrays and objects around it, the arguments object first). Python's
    `json` reads more than mur, which would refuse the whole call as the verb's fault:
    `NaN`, `Infinity` and numbers beyond a 64-bit float (`1e400`, or `1` and 400 zeros:
    mur reads an integer past `i64`/`u64` as a float), a lone surrogate escape
    (`"\\ud800"`) and nesting deeper than mur's limit."""
    if isinstance(value, float) and not math.isfinite(value) or _beyond_a_float(value):
        return "NaN, Infinity or a number beyond a 64-bit float"
    if isinstance(value, str):
        lone = any(0xD800 <= ord(char) <= 0xDFFF for char in value)
        return "a string with a lone surrogate escape" if lone else None
    if isinstance(value, (list, dict)):
        if depth >= _JSON_LEVELS:
            return _TOO_DEEP
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        for item in items:
            why = _unreadable(item, depth + 1)
            if why is not None:
                return why
    return None


def _beyond_a_float(value):
    """Whether `value` is an integer too large for a 64-bit float (bool is an int too)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    try:
        float(value)
    except OverflowError:
        return True
    return False


def _typed(param, word):
    """A checked `word` as `args[name]` gives it, the value the tool is sent: of kind
    `integer` or `count` an int (a count's `-0` 0), `number` an int or, written with
    a point or not whole (`2.0`, `2e-1`), a float, `milliseconds` an int; of any other kind the word as typed
    (`json` too: its text). Its text made `text * args["times"]` fail, and an
    `arguments` passing `args["n"]` on sent `"3"` where the default sent 3."""
    if param.kind in ("integer", "count"):
        return int(word)
    if param.kind == "number":
        number = float(word)
        return int(number) if number.is_integer() and "." not in word else number
    if param.kind == "milliseconds":
        return _millis(word)
    return word


def _sent_value(param, value):
    """A value of `Args` (`_typed`) as the tool's arguments carry it: a `json` one parsed."""
    return json.loads(value) if param.kind == "json" else value


def _bytes(value, what):
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise Error(f"`shape` returned {type(value).__name__} for {what}; return str or bytes")


def camel_case(name):
    """`include-source` → `includeSource`."""
    first, *rest = name.split("-")
    return first + "".join(word[:1].upper() + word[1:] for word in rest)


def payload(result):
    """What a tool result means to a script: its `structuredContent`, else its
    first text content read as JSON (or as a string when it is not JSON, or nests
    arrays and objects deeper than mur reads JSON, as the Rust kit's `payload` reads
    it), else the result itself."""
    if "structuredContent" in result:
        return result["structuredContent"]
    for block in result.get("content") or []:
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text", "")
            # Read, a text nested some 1000 levels raised RecursionError, a crash; past
            # serde_json's limit, the Rust kit reads no JSON in it either.
            if _nesting(text) > _JSON_LEVELS:
                return text
            try:
                return json.loads(text)
            except ValueError:
                return text
    return result


def _nesting(text):
    """The most levels of arrays and objects `text` nests, as JSON (outside its
    strings), counted without recursion, whatever the text: JSON or not. The regular
    expressions leave only the brackets, for a loop over them alone."""
    if not isinstance(text, str):
        return 0
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for c in brackets:
        depth += 1 if c in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]")


def json_line(value, pretty=False):
    """`value` as JSON, compact or indented, ending in a newline."""
    if pretty:
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"


def export(verb_class):
    """The `WitWorld` class componentize-py exports for verb `verb_class`:
    `info`, `parse` and `shape` on the generated bindings (imported only here,
    inside the component)."""
    verb = verb_class()

    class WitWorld:
        def info(self):
            from wit_world.imports import types

            described, _ = _answer(verb.describe)

            def param(p):
                kind = types.ValueKind[p["kind"].upper().replace("-", "_")]
                return types.Param(**{**p, "kind": kind})

            described["positionals"] = [param(p) for p in described["positionals"]]
            described["options"] = [param(p) for p in described["options"]]
            return types.VerbInfo(**described)

        def parse(self, argv):
            from componentize_py_types import Err
            from wit_world.imports import types

            call, message = _answer(verb.parse, argv)
            if message is not None:
                raise Err(message)
            if call is None:
                return types.Parsed_Help()
            request = types.CallRequest(call.arguments, call.timeout_ms, call.writes, call.state)
            return types.Parsed_Call(request)

        def shape(self, result, state, options):
            from componentize_py_types import Err
            from wit_world.imports import types

            out, message = _answer(verb.render, result, state, options.pretty)
            if message is not None:
                raise Err(message)
            files = [types.FileWrite(f.path, f.contents) for f in out.files]
            return types.Shaped(out.stdout, files, out.notes)

    WitWorld.verb = verb
    return WitWorld


NAME_SECTION = "mur:verb-name"
"""The custom section that names the verb, read by `mur devtools verbs add`."""

WAITS_SECTION = "mur:verb-waits"
"""The custom section of a verb whose tool waits (`Verb.waits`): `ARGUMENT=MS`."""


def stamp(component, world):
    """Append to the component file `component` the custom section
    `mur:verb-name` holding the name of `world`'s verb (`world`: the `WitWorld`
    of `export`), as `info` gives it: `mur devtools verbs add` reads it before
    compiling, so a name it refuses (`call`, `verbs`, …) is refused at once,
    not after a compile of 10 s or more. A verb that declares `waits` gets the
    section `mur:verb-waits` too (`timeoutMs=5000`), which `info` has no field
    for. build.sh runs this natively."""
    sections = custom_section(NAME_SECTION, verb_name(world))
    waits = world.verb.waits
    if waits is not None:
        sections += custom_section(WAITS_SECTION, f"{waits.argument}={waits.default_ms}")
    with open(component, "ab") as out:
        out.write(sections)


def refusal(module):
    """Why the kit refuses the verb that importing `module` declares, as one line
    `FILE:LINE: message` (the place of the param or `Waits` at fault, else of the
    declaration), or None: when it loads, and when it
    fails to load natively for another reason (componentize-py says what it says of
    that). build.sh runs this natively, before componentize-py, and reads the answer
    on fd 3, away from what the verb writes to fd 1 as it loads."""
    try:
        importlib.import_module(module)
    except DeclarationError as error:
        frames = [
            (frame.filename, frame.lineno) for frame in traceback.extract_tb(error.__traceback__)
            if not frame.filename.startswith("<")
            and os.path.abspath(frame.filename) != os.path.abspath(__file__)
        ]
        place = error.where or (frames[-1] if frames else None)
        where = f"{os.path.relpath(place[0])}:{place[1]}: " if place else ""
        return f"{where}{error}"
    except Exception:
        return None
    return None


def custom_section(name, text):
    """The bytes of a WebAssembly custom section `name` holding `text` (UTF-8)."""
    name, data = name.encode("utf-8"), text.encode("utf-8")
    body = _leb128(len(name)) + name + data
    return b"\x00" + _leb128(len(body)) + body


def verb_name(world):
    """The name `world`'s verb gives in `info`."""
    return world.verb.describe()["name"]


def _leb128(n):
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _answer(function, *args):
    """`function`'s value and None, or None and the message of the `Error` it
    raised: `componentize_py_types.Err` is raised outside any `except`, so its
    value is always a plain `str` and no traceback is chained to it. Any other
    exception is a bug: its traceback goes to stderr, where `mur` reads the
    exception and the innermost frame from its last lines, and the component
    aborts (a trap), with nothing printed after the traceback."""
    try:
        return function(*args), None
    except Error as error:
        return None, str(error)
    except BaseException as error:
        sys.stderr.write(_traceback(error))
        sys.stderr.flush()
        os.abort()


def _traceback(error):
    """`error`'s traceback as traceback.print_exc() prints it, but a file beside kit.py
    named as the project names it (`File "app.py"`): componentize-py runs the project
    from a directory of its own, `/0/`, which no one building it knows."""
    here = os.path.dirname(os.path.abspath(__file__))
    shown = traceback.TracebackException.from_exception(error)
    pending, seen = [shown], set()
    while pending:
        one = pending.pop()
        if id(one) in seen:
            continue
        seen.add(id(one))
        for frame in one.stack:
            frame.line  # its source line, read by the path it has before it is renamed
            if os.path.dirname(os.path.abspath(frame.filename)) == here:
                frame.filename = os.path.basename(frame.filename)
        pending += [e for e in (one.__cause__, one.__context__) if e is not None]
        pending += getattr(one, "exceptions", None) or []
    return "".join(shown.format())
