//! Hostile test verb: `parse` returns arguments that are not a JSON object
//! (`liar text` → not JSON, `liar array` → a JSON array).
use mur::verb::types::CallRequest;

mur_test_guest::test_guest! {
    Liar {
        name: "liar",
        summary: "Return malformed arguments (test guest)",
        usage: "usage: mur devtools liar text|array",
        fn parse(argv) {
            let arguments = match argv.first().map(String::as_str) {
                Some("array") => "[1, 2, 3]",
                _ => "this is not json",
            };
            Ok(Parsed::Call(CallRequest { arguments: arguments.into(), timeout_ms: None }))
        }
    }
}
