//! Hostile test verb: `parse` returns what no well-made verb does: arguments
//! that are not a JSON object (`liar text` → not JSON, `liar array` → a JSON
//! array), a bound of 0 ms (`liar zero`), a refusal with no message (`liar mute`).
use mur::verb::types::CallRequest;

mur_test_guest::test_guest! {
    Liar {
        name: "liar",
        summary: "Return malformed arguments (test guest)",
        usage: "usage: mur devtools liar text|array|zero|mute",
        fn parse(argv) {
            let (arguments, timeout_ms) = match argv.first().map(String::as_str) {
                Some("array") => ("[1, 2, 3]", None),
                Some("zero") => ("{}", Some(0)),
                Some("mute") => return Err(String::new()),
                _ => ("this is not json", None),
            };
            Ok(Parsed::Call(CallRequest { arguments: arguments.into(), timeout_ms }))
        }
    }
}
