"""Native tests of the verb in app.py: `python3 -m unittest` (no componentize-py needed).

These are yours: change them as you change the verb. They read what it declares (its
name, tool and `waits`), so a new tool or a wait breaks none of them; a new `shape` or
new params may. The kit's own tests are in test_kit.py, on verbs of their own.
"""

import json
import unittest

import app
import kit


class VerbTest(unittest.TestCase):
    verb = app.Verb()

    def test_sends_the_selector_and_the_timeout(self):
        call = self.verb.parse(["#btn-inc", "--timeout", "900"])
        sent = {"selector": "#btn-inc"}
        if app.Verb.waits is not None:
            # `--timeout MS` is sent as the argument the tool waits on too.
            sent[app.Verb.waits.argument] = 900
        self.assertEqual(json.loads(call.arguments), sent)
        self.assertEqual(call.timeout_ms, 900)

    def test_usage_errors_are_one_line(self):
        with self.assertRaises(kit.Error) as raised:
            self.verb.parse([])
        self.assertEqual(str(raised.exception), "missing argument `<selector>`")

    def test_prints_the_result(self):
        call = self.verb.parse(["#btn-inc"])
        result = json.dumps({"content": [], "structuredContent": {"clicked": "#btn-inc"}})
        self.assertEqual(self.verb.render(result, call.state, pretty=False).stdout, b'{"clicked":"#btn-inc"}\n')

    def test_the_component_exports_this_verb(self):
        # `WitWorld`, what componentize-py exports and build.sh names the component by.
        self.assertIsInstance(app.WitWorld.verb, app.Verb)
        info = app.WitWorld.verb.describe()
        self.assertEqual((info["name"], info["tool"]), (app.Verb.name, app.Verb.tool))
        self.assertEqual(kit.verb_name(app.WitWorld), app.Verb.name)


if __name__ == "__main__":
    unittest.main()
