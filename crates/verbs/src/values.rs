//! A plugin verb's JSON values read from a file or stdin, by the host's one rule for
//! them ([`Source::of_whole`], as `call --args` and a derived verb's `--args` read
//! theirs): a JSON option's `@FILE` is FILE's contents, and `-` or `@-` stdin's. No
//! JSON value is `-` or begins with `@`, so nothing typed is read differently. The
//! host reads them before the verb's `parse`, which then sees the JSON as if typed: a
//! verb is a sandboxed component that cannot read a file (the standard verbs import
//! nothing), and a kit need not know the rule for its verbs to keep it.

use std::borrow::Cow;
use std::time::Duration;

use crate::derived::{ReadBytes, Source, StdinUse};
use crate::spec::{Param, ValueKind, VerbSpec};

/// What a JSON option's help adds of the rule, in the words of a derived verb's `--args`.
const SAID: &str = "`@FILE`, `-`: read from FILE, stdin";

/// `spec` as its help and usage show it: each JSON option's help saying the rule.
pub fn shown(spec: &VerbSpec) -> Cow<'_, VerbSpec> {
    let json = |param: &Param| param.kind == ValueKind::Json;
    if !spec.options.iter().any(json) {
        return Cow::Borrowed(spec);
    }
    let mut shown = spec.clone();
    for option in shown.options.iter_mut().filter(|option| json(option)) {
        // In the one parenthesis of what mur adds (`(…, repeatable)`).
        let added: Vec<String> = std::iter::once(SAID.to_owned())
            .chain(crate::spec::added(option, true))
            .collect();
        option.help = crate::spec::with_added(&option.help, &added);
    }
    Cow::Owned(shown)
}

/// `argv` with each JSON option's `@FILE`, `@-` or `-` replaced by what it reads (as
/// its own word, or after `--name=`), or what could not be read or is no JSON, in one
/// line naming the option and where it was read from. `within` bounds reading a pipe:
/// the command's `--timeout`.
pub fn read<'a>(
    spec: &VerbSpec,
    argv: &'a [String],
    within: Duration,
) -> Result<Cow<'a, [String]>, String> {
    let mut replaced: Option<Vec<String>> = None;
    let mut stdin = StdinUse::default();
    let mut read = ReadBytes::default();
    for given in spec.given(argv) {
        if !given.option || given.param.kind != ValueKind::Json {
            continue;
        }
        let source = Source::of_whole(given.value);
        if let Source::Typed(_) = source {
            continue;
        }
        let name = given.param.name.as_str();
        stdin.take(source, name)?;
        let text = read.add(source.read(name, within)?, name)?;
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&text) {
            return Err(format!("`--{name} {}` is not valid JSON: {e}", given.value));
        }
        let words = replaced.get_or_insert_with(|| argv.to_vec());
        words[given.at] = match given.inline {
            true => format!("--{name}={}", &*text),
            false => text.to_string(),
        };
    }
    Ok(replaced.map_or(Cow::Borrowed(argv), Cow::Owned))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derived::WITHIN;

    fn spec() -> VerbSpec {
        VerbSpec {
            positionals: vec![Param::new("target", "", ValueKind::Name, "").required()],
            options: vec![
                Param::new("args", "JSON", ValueKind::Json, ""),
                Param::new("text", "X", ValueKind::Text, ""),
            ],
            ..VerbSpec::default()
        }
    }

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    /// A file `v.json` holding `contents` in a new directory (kept while it lives), and
    /// `@` and its path.
    fn at_file(contents: &str) -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("v.json");
        std::fs::write(&file, contents).expect("write");
        let at = format!("@{}", file.display());
        (dir, at)
    }

    #[test]
    fn a_json_options_file_is_read_and_nothing_else_is() {
        let (_dir, at) = at_file("{\"value\": 3}\n");
        let typed = argv(&["@x", "--text", &at, "--args", "{}"]);
        assert!(matches!(
            read(&spec(), &typed, WITHIN),
            Ok(Cow::Borrowed(_))
        ));
        let inline = format!("--args={at}");
        for (given, read_as) in [
            (argv(&["counter.set", "--args", &at]), "{\"value\": 3}\n"),
            (argv(&["counter.set", &inline]), "--args={\"value\": 3}\n"),
        ] {
            let words = read(&spec(), &given, WITHIN).expect("read");
            assert_eq!(words[..given.len() - 1], given[..given.len() - 1]);
            assert_eq!(words.last().map(String::as_str), Some(read_as));
        }
        // After `--`, a word is a positional's, never read.
        let ended = argv(&["--", "--args", &at]);
        assert!(matches!(
            read(&spec(), &ended, WITHIN),
            Ok(Cow::Borrowed(_))
        ));
    }

    #[test]
    fn a_file_that_holds_no_json_or_is_not_there_is_named() {
        let (dir, at) = at_file("{\"value\": }");
        assert_eq!(
            read(&spec(), &argv(&["c.e", "--args", &at]), WITHIN),
            Err(format!(
                "`--args {at}` is not valid JSON: expected value at line 1 column 11"
            ))
        );
        let gone = format!("@{}", dir.path().join("gone.json").display());
        let err = read(&spec(), &argv(&["c.e", "--args", &gone]), WITHIN).expect_err("no file");
        assert!(
            err.starts_with(&format!("`--args`: `{}`", &gone[1..])),
            "{err}"
        );
    }
}
