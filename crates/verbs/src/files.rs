//! A verb's output, and the one rule for the files it asks the host to write:
//! only at a path the user typed, verbatim, on the verb's command line. A
//! `mur:verb@0.2.0`-or-later verb declares its paths in `parse`, so they are checked
//! before the call and a refused path sends nothing; a `0.1.0` verb's paths are
//! known only after `shape`.

use std::path::Path;
use std::time::Duration;

use super::error::VerbError;
use super::spec::{ValueKind, VerbSpec};

/// What `shape` produced: bytes for stdout and files to write first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shaped {
    /// The verb that produced this, for error messages.
    pub verb: String,
    pub stdout: Vec<u8>,
    pub files: Vec<(String, Vec<u8>)>,
    /// Lines for stderr, after stdout: the verb's notes, made safe to print
    /// ([`crate::notes`]); none from a 0.2 or 0.1 verb.
    pub notes: Vec<String>,
}

/// Check, before the call, the paths a verb declared it will write: each must
/// be on its command line (see [`on_command_line`]), given there as the value of
/// a param the verb declares an output path (`outputs`, read from argv by its spec:
/// a word typed as text to type, or as a selector, is never a file to write), and
/// name a file that can be written ([`writable`]).
pub fn check_declared(
    verb: &str,
    writes: &[String],
    argv: &[String],
    outputs: Option<&OutputPaths>,
) -> Result<(), VerbError> {
    for path in writes {
        on_command_line(verb, path, argv)
            .and_then(|()| match outputs {
                Some(outputs) if !outputs.gives(path) => Err(VerbError::plugin(
                    verb,
                    format!(
                        "asked to write `{path}`, which its command line does not give as an \
                         output path (the value of a param it declares `output-path`); refused"
                    ),
                )),
                _ => Ok(()),
            })
            .map_err(|e| match e {
                VerbError::Plugin {
                    verb,
                    message,
                    hint,
                } => VerbError::Plugin {
                    verb,
                    message: format!("{message} before the call (nothing was sent)"),
                    hint,
                },
                other => other,
            })?;
        writable(path, " (nothing was sent)")?;
    }
    Ok(())
}

/// A path the user typed for a verb's file, refused when no file can be written there
/// (a directory, a link into a directory that does not exist: as `call --out`
/// refuses it) or when it is mur's own stdout (`/dev/stdout`), where the file and the
/// verb's output would overwrite each other: `-` is how a verb is asked for stdout.
/// `then` says what became of the call (` (nothing was sent)`, or that it ran).
fn writable(path: &str, then: &str) -> Result<(), VerbError> {
    let at = Path::new(path);
    if mur_lockfile::is_stdout(at) {
        return Err(VerbError::refused(
            format!("`{path}` is mur's own stdout, where the verb's output goes{then}"),
            "give `-` for the file's bytes on stdout, or name a file",
        ));
    }
    refused_unwritable(at, then)
}

/// A path typed for a file to write — a verb's (`screenshot --out`), `call --out`'s, a
/// derived verb's `--out` — refused before the call when no file can be written there
/// ([`mur_lockfile::check_named`]: its directory does not exist, it is a directory…),
/// in one wording wherever it was typed: `call --out` and a derived verb's said it
/// otherwise (`` `--out`: the directory `x` does not exist ``), with no hint.
pub fn writable_before_the_call(path: &Path) -> Result<(), VerbError> {
    refused_unwritable(path, " (nothing was sent)")
}

/// `path` refused, `then` saying what became of the call, unless a file can be written
/// there.
fn refused_unwritable(path: &Path, then: &str) -> Result<(), VerbError> {
    mur_lockfile::check_named(path).map_err(|e| {
        VerbError::refused(
            format!("cannot write `{}`: {e}{then}", path.display()),
            "name a file that can be written, in a directory that exists",
        )
    })
}

impl Shaped {
    /// Write the requested files. Every path is checked before any is written, so
    /// a refused request leaves the disk untouched: a 0.2 verb may write only the
    /// paths it declared (`declared`), which were checked against argv before the
    /// call; a 0.1 verb's paths are checked against argv here. A FIFO's reader that
    /// takes nothing for `patience` fails the write (see [`mur_lockfile::write_named`]).
    pub fn write_files(
        &self,
        argv: &[String],
        declared: Option<&[String]>,
        patience: Duration,
    ) -> Result<(), VerbError> {
        for (at, (path, _)) in self.files.iter().enumerate() {
            // Before the declared paths: a kit leaves `-` out of them, so a verb that
            // writes what `--out -` names was told it had not declared `-`.
            if path == "-" {
                return Err(stdout_is_no_file(&self.verb));
            }
            // Which of two contents the user meant is not the host's to guess (the
            // last one won, silently): a verb bug, refused as an undeclared path is.
            if self.files[..at].iter().any(|(before, _)| before == path) {
                return Err(VerbError::plugin(
                    &self.verb,
                    format!("asked to write `{path}` twice; refused"),
                ));
            }
            match declared {
                Some(declared) if !declared.contains(path) => {
                    return Err(VerbError::plugin(
                        &self.verb,
                        format!(
                            "asked to write `{path}`, a path its `parse` did not declare; refused"
                        ),
                    ));
                }
                _ => on_command_line(&self.verb, path, argv)?,
            }
            // The command line was fine (a 0.2+ verb's paths passed before the
            // call) and the tool has run: a path no file can be written at now is
            // mur's own failure to finish (exit 7), as a failed write below is.
            writable(
                path,
                &format!("; the `{}` call itself already ran", self.verb),
            )
            .map_err(|e| match e {
                VerbError::Refused { message, hint } => {
                    VerbError::internal_with_hint(message, hint)
                }
                other => other,
            })?;
        }
        for (path, contents) in &self.files {
            // Written as `call --out` writes its files: whole or not at all, through
            // a link, a FIFO or a device ([`mur_lockfile::write_named`]). Not a usage
            // error when it fails: the command line was fine and the tool has already
            // run (its effect on the app stands); mur failed at its own part (exit 7).
            mur_lockfile::write_named(Path::new(path), contents, patience).map_err(|e| {
                // Its reader stopped or went away (a full device is the file's own fault).
                let reader = matches!(
                    e.kind(),
                    std::io::ErrorKind::TimedOut | std::io::ErrorKind::BrokenPipe
                );
                let hint = if reader {
                    "a pipe or a device takes only what its reader reads: check that one reads it"
                } else {
                    "check that the file and its directory can be written, then run the verb again"
                };
                VerbError::internal_with_hint(
                    format!(
                        "could not write `{path}`: {e}; the `{}` call itself already ran",
                        self.verb
                    ),
                    hint,
                )
            })?;
        }
        Ok(())
    }
}

/// A path must appear verbatim in `argv` (what the user typed after the verb),
/// as a word of its own or as the value of a long option (`--out=PATH`); `-`
/// means stdout, which a verb fills through `stdout`, never as a file.
fn on_command_line(verb: &str, path: &str, argv: &[String]) -> Result<(), VerbError> {
    if path == "-" {
        return Err(stdout_is_no_file(verb));
    }
    if path.is_empty()
        || !argv
            .iter()
            .any(|a| a == path || option_value(a) == Some(path))
    {
        return Err(VerbError::plugin(
            verb,
            format!("asked to write `{path}`, a path not on its command line; refused"),
        ));
    }
    Ok(())
}

/// A verb asked to write a file named `-`: the user typed `-` (`--out -`) for stdout,
/// and this verb does not print the file there. Nothing is written, at `-` or to stdout:
/// a verb's stdout is what `shape` returns, and the verb's own output would be mixed
/// into the file's bytes. The user can name a file; the author can return the bytes.
fn stdout_is_no_file(verb: &str) -> VerbError {
    VerbError::plugin_with_hint(
        verb,
        "asked to write a file named `-`, but `-` means stdout, which a verb fills with \
         what its `shape` returns, never as a file; refused",
        "this verb does not print the file on stdout: name a file to write instead of `-` \
         (to its author: return the bytes as `shape`'s stdout when the path is `-`)",
    )
}

/// The output paths a verb's command line gives: the value of each param its spec
/// declares an output path, read once for every check of the call — the paths it
/// declares in `parse` ([`check_declared`]) and `-`, stdout, which the host refuses
/// to fill with a file's bytes on a terminal ([`OutputPaths::to_stdout`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputPaths(Vec<OutputPath>);

/// One output path a command line gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputPath {
    /// The param's name: an option's without `--`, or a positional's.
    pub param: String,
    /// Whether the param is an option (`--out PATH`) or a positional.
    pub option: bool,
    /// The path, as typed.
    pub value: String,
}

impl OutputPaths {
    /// The output paths `argv` gives, read as the kits read it ([`VerbSpec::given`]).
    pub fn read(spec: &VerbSpec, argv: &[String]) -> Self {
        let found = spec
            .given(argv)
            .into_iter()
            .filter(|given| given.param.kind == ValueKind::OutputPath)
            .map(|given| OutputPath {
                param: given.param.name.clone(),
                option: given.option,
                value: given.value.to_owned(),
            });
        Self(found.collect())
    }

    /// The output-path option given `-` (stdout), if one is. Only an option's: the
    /// kits (Rust, Python, JavaScript) print for `--out -` and hand every other
    /// output path to `shape` as a file, a positional's `-` included.
    pub fn to_stdout(&self) -> Option<&OutputPath> {
        self.0
            .iter()
            .find(|output| output.option && output.value == "-")
    }

    /// Whether `path` is given as an output path's value.
    fn gives(&self, path: &str) -> bool {
        self.0.iter().any(|output| output.value == path)
    }
}

/// `PATH` of an argv word `--name=PATH`.
fn option_value(word: &str) -> Option<&str> {
    word.strip_prefix("--")
        .and_then(|option| option.split_once('='))
        .map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_may_be_a_word_or_a_long_options_value() {
        let argv = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert!(on_command_line("v", "a.png", &argv(&["--out", "a.png"])).is_ok());
        assert!(on_command_line("v", "a.png", &argv(&["--out=a.png"])).is_ok());
        for refused in [
            &["--out=b.png"][..],
            &["-o=a.png"],
            &["x=a.png"],
            &["--out", "./a.png"],
        ] {
            assert!(
                on_command_line("v", "a.png", &argv(refused)).is_err(),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn a_declared_path_not_typed_is_refused_before_the_call() {
        let argv = vec!["--out".to_owned(), "a.png".to_owned()];
        assert!(check_declared("v", &["a.png".to_owned()], &argv, None).is_ok());
        let err =
            check_declared("v", &["/etc/passwd".to_owned()], &argv, None).expect_err("refused");
        assert_eq!(
            err.to_string(),
            "verb `v` asked to write `/etc/passwd`, a path not on its command line; refused before the call (nothing was sent)"
        );
    }

    /// A path typed as text to type, or as a selector, is not a file the verb may
    /// write, though it is on the command line: only an output path's value is.
    #[test]
    fn a_declared_path_must_be_given_as_an_output_path() {
        use crate::spec::Param;
        let spec = VerbSpec {
            positionals: vec![
                Param::new("text", "", ValueKind::Text, "the text"),
                Param::new("save", "", ValueKind::OutputPath, "files").repeatable(),
            ],
            options: vec![
                Param::new("out", "PATH", ValueKind::OutputPath, "where"),
                Param::new("into", "S", ValueKind::Selector, "the element"),
                Param::new("clear", "", ValueKind::Flag, "clear first"),
            ],
            ..VerbSpec::default()
        };
        let argv = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let check = |path: &str, words: &[&str]| {
            let outputs = OutputPaths::read(&spec, &argv(words));
            check_declared("v", &[path.to_owned()], &argv(words), Some(&outputs))
                .map_err(|e| e.to_string())
        };
        for (path, words) in [
            ("a.png", &["t", "--out", "a.png"][..]),
            ("a.png", &["t", "--out=a.png"]),
            ("b.png", &["t", "--clear", "b.png"]),
            ("c.png", &["t", "b.png", "c.png"]),
            ("--x", &["--", "t", "--x"]),
        ] {
            assert_eq!(check(path, words), Ok(()), "{words:?}");
        }
        for (path, words) in [
            ("config.json", &["config.json", "--clear"][..]),
            ("a.png", &["t", "--into", "a.png"]),
            ("a.png", &["t", "--into=a.png", "--out", "b.png"]),
        ] {
            assert_eq!(
                check(path, words),
                Err(format!(
                    "verb `v` asked to write `{path}`, which its command line does not give as \
                     an output path (the value of a param it declares `output-path`); refused \
                     before the call (nothing was sent)"
                )),
                "{words:?}"
            );
        }
    }

    /// `-` (stdout) is found where the kits read an output-path option's value: the
    /// value of an option that takes one is the next word whatever it is (`--window
    /// --out -` gives no option `-`; `--window -- --out -` gives `--out` stdout). A
    /// positional's `-` is a path (the kits print only for an option's).
    #[test]
    fn stdout_is_found_as_the_kits_read_argv() {
        use crate::spec::Param;
        let spec = VerbSpec {
            positionals: vec![Param::new("save", "", ValueKind::OutputPath, "file")],
            options: vec![
                Param::new("out", "PATH", ValueKind::OutputPath, "where"),
                Param::new("window", "W", ValueKind::Name, "the window"),
                Param::new("clear", "", ValueKind::Flag, "clear first"),
            ],
            ..VerbSpec::default()
        };
        let stdout = |words: &[&str]| {
            let argv: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
            OutputPaths::read(&spec, &argv)
                .to_stdout()
                .map(|o| (o.param.clone(), o.option))
        };
        let out = Some(("out".to_owned(), true));
        assert_eq!(stdout(&["--out", "-"]), out);
        assert_eq!(stdout(&["--clear", "--out=-"]), out);
        assert_eq!(stdout(&["--window", "--", "--out", "-"]), out);
        assert_eq!(stdout(&["--window", "--out", "-"]), None);
        assert_eq!(stdout(&["--window", "--out", "a.png"]), None);
        assert_eq!(
            stdout(&["--", "--out", "-"]),
            None,
            "after `--`, words are positionals"
        );
        assert_eq!(stdout(&["-"]), None);
        assert_eq!(stdout(&["--out", "a.png", "b.png"]), None);
    }

    #[test]
    fn a_verb_may_write_only_what_it_declared() {
        let shaped = Shaped {
            verb: "v".into(),
            stdout: Vec::new(),
            files: vec![("b.png".into(), Vec::new())],
            notes: Vec::new(),
        };
        let argv = vec!["a.png".to_owned(), "b.png".to_owned()];
        let err = shaped
            .write_files(
                &argv,
                Some(&["a.png".to_owned()]),
                std::time::Duration::from_secs(10),
            )
            .expect_err("undeclared");
        assert!(err.to_string().contains("did not declare"), "{err}");
    }

    /// Two files for one path: the verb's failure, nothing written; a path no file
    /// can be written at once the call ran: mur's own (exit 7), not usage (exit 1).
    #[test]
    fn a_path_twice_is_the_verbs_failure_and_an_unwritable_one_mur_s() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = tmp.path().join("o.txt").display().to_string();
        let shaped = Shaped {
            verb: "v".into(),
            stdout: Vec::new(),
            files: vec![
                (out.clone(), b"first".to_vec()),
                (out.clone(), b"second".to_vec()),
            ],
            notes: Vec::new(),
        };
        let patience = std::time::Duration::from_secs(10);
        let twice = shaped
            .write_files(std::slice::from_ref(&out), None, patience)
            .expect_err("twice");
        assert_eq!(
            (twice.to_string(), twice.kind()),
            (
                format!("verb `v` asked to write `{out}` twice; refused"),
                mur_core::Kind::Plugin
            )
        );
        assert!(!Path::new(&out).exists(), "nothing written");

        let nowhere = tmp.path().join("nodir/o.txt").display().to_string();
        let shaped = Shaped {
            files: vec![(nowhere.clone(), b"x".to_vec())],
            ..shaped
        };
        let after = shaped
            .write_files(std::slice::from_ref(&nowhere), None, patience)
            .expect_err("no directory");
        assert_eq!(after.kind(), mur_core::Kind::Internal, "{after}");
        assert!(
            after
                .to_string()
                .ends_with("; the `v` call itself already ran"),
            "{after}"
        );
    }

    /// `--out -` given to a verb that writes what it names as a file: the one message
    /// saying what `-` is and what to do, whether `parse` declared `-` (refused before
    /// the call) or left it out as the kits do (refused after; it was said to be a path
    /// not declared), or declares nothing (a 0.1 verb).
    #[test]
    fn a_file_named_dash_is_refused_saying_it_means_stdout() {
        let said = "this verb does not print the file on stdout: name a file to write instead \
                    of `-` (to its author: return the bytes as `shape`'s stdout when the path is `-`)";
        let argv = vec!["--out".to_owned(), "-".to_owned()];
        let before = check_declared("v", &["-".to_owned()], &argv, None).expect_err("refused");
        assert_eq!(
            (before.to_string(), before.hint()),
            (
                "verb `v` asked to write a file named `-`, but `-` means stdout, which a verb \
                 fills with what its `shape` returns, never as a file; refused before the call \
                 (nothing was sent)"
                    .to_owned(),
                Some(said.to_owned())
            )
        );
        let shaped = Shaped {
            verb: "v".into(),
            stdout: Vec::new(),
            files: vec![("-".into(), b"png".to_vec())],
            notes: Vec::new(),
        };
        for declared in [Some(&[][..]), None] {
            let after = shaped
                .write_files(&argv, declared, std::time::Duration::from_secs(10))
                .expect_err("refused");
            assert_eq!(
                (after.to_string(), after.hint()),
                (
                    "verb `v` asked to write a file named `-`, but `-` means stdout, which a \
                     verb fills with what its `shape` returns, never as a file; refused"
                        .to_owned(),
                    Some(said.to_owned())
                ),
                "{declared:?}"
            );
            assert_eq!(after.kind(), mur_core::Kind::Plugin);
        }
    }
}
