//! A verb's output, and the one rule for the files it asks the host to write:
//! only at a path the user typed, verbatim, on the verb's command line.

use std::path::Path;

use super::bindings::WitShaped;
use super::error::VerbError;

/// What `shape` produced: bytes for stdout and files to write first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shaped {
    /// The verb that produced this, for error messages.
    pub verb: String,
    pub stdout: Vec<u8>,
    pub files: Vec<(String, Vec<u8>)>,
}

impl Shaped {
    pub(crate) fn from_wit(verb: &str, shaped: WitShaped) -> Self {
        let files = shaped
            .files
            .into_iter()
            .map(|f| (f.path, f.contents))
            .collect();
        Self {
            verb: verb.to_owned(),
            stdout: shaped.stdout,
            files,
        }
    }

    /// Write the requested files. Every path is checked before any is written, so
    /// a refused request leaves the disk untouched: a path must appear verbatim
    /// in `argv` (what the user typed after the verb), as a word of its own or as
    /// the value of a long option (`--out=PATH`), and `-` means stdout, which a
    /// verb fills through `stdout`, never as a file.
    pub fn write_files(&self, argv: &[String]) -> Result<(), VerbError> {
        for (path, _) in &self.files {
            self.check(path, argv)?;
        }
        for (path, contents) in &self.files {
            // Not a usage error: the command line was fine and the tool has
            // already run (its effect on the app stands); mur failed at its
            // own part, the write (exit 7).
            std::fs::write(Path::new(path), contents).map_err(|e| {
                VerbError::internal_with_hint(
                    format!(
                        "could not write `{path}`: {e}; the `{}` call itself already ran",
                        self.verb
                    ),
                    "check that the directory exists and is writable, then run the verb again",
                )
            })?;
        }
        Ok(())
    }

    fn check(&self, path: &str, argv: &[String]) -> Result<(), VerbError> {
        if path == "-" {
            return Err(VerbError::plugin(
                &self.verb,
                "asked to write a file named `-`, which means stdout",
            ));
        }
        if path.is_empty()
            || !argv
                .iter()
                .any(|a| a == path || option_value(a) == Some(path))
        {
            return Err(VerbError::plugin(
                &self.verb,
                format!("asked to write `{path}`, a path not on its command line; refused"),
            ));
        }
        Ok(())
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
    use super::Shaped;

    fn asking_for(path: &str) -> Shaped {
        Shaped {
            verb: "v".into(),
            stdout: Vec::new(),
            files: vec![(path.into(), Vec::new())],
        }
    }

    #[test]
    fn a_path_may_be_a_word_or_a_long_options_value() {
        let argv = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert!(
            asking_for("a.png")
                .check("a.png", &argv(&["--out", "a.png"]))
                .is_ok()
        );
        assert!(
            asking_for("a.png")
                .check("a.png", &argv(&["--out=a.png"]))
                .is_ok()
        );
        for refused in [
            &["--out=b.png"][..],
            &["-o=a.png"],
            &["x=a.png"],
            &["--out", "./a.png"],
        ] {
            assert!(
                asking_for("a.png").check("a.png", &argv(refused)).is_err(),
                "{refused:?}"
            );
        }
    }
}
