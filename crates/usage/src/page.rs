//! Where a report's page that a user named with `--html` goes, decided one way for
//! `mur devtools usage report` and mur-eval's studies: this process's stdout (`-`, or
//! another name for it) or a file, and stdout refused when it is a terminal — which
//! each binary says, from the one place it asks ([`PageOnTerminal::refuse_if`]).

use std::fmt;
use std::path::PathBuf;

use mur_lockfile::is_stdout;

/// Where `--html PATH` sends the page.
#[derive(Debug, PartialEq, Eq)]
pub enum PageTarget {
    /// `-`, or a name for this process's own stdout ([`is_stdout`]: `/dev/stdout`, the
    /// file stdout is redirected to), as `--out -` is taken: the page is the output.
    Stdout,
    /// Any other name, as typed: whether a file can be written there is
    /// [`mur_lockfile::check_named`]'s to say, when the caller asks.
    File(PathBuf),
}

/// Where the page `--html path` names goes. Nothing is checked but what stdout is: a
/// caller checks a file when it knows what else the page must not overwrite, and asks
/// [`PageOnTerminal::refuse_if`] when it knows nothing else refuses stdout first.
pub fn page_target(path: PathBuf) -> PageTarget {
    if path.as_os_str() == "-" || is_stdout(&path) {
        PageTarget::Stdout
    } else {
        PageTarget::File(path)
    }
}

/// `--html -` refused: stdout is a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageOnTerminal;

impl PageOnTerminal {
    /// Whether stdout can take the page, `terminal` saying whether it is one (the
    /// binary's own check): not a terminal, as `call --out -` refuses one — a page of
    /// markup is no text for it.
    pub fn refuse_if(terminal: bool) -> Result<(), PageOnTerminal> {
        match terminal {
            true => Err(PageOnTerminal),
            false => Ok(()),
        }
    }

    /// What to do instead, `example` naming a file the page could be redirected to
    /// (`usage.html`, `report.html`).
    pub fn hint(&self, example: &str) -> String {
        format!("pipe it (`| w3m -T text/html`, `> {example}`) or write a file: `--html FILE`")
    }
}

impl fmt::Display for PageOnTerminal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`--html -` writes the report's page (HTML) to stdout, which is a terminal")
    }
}

impl std::error::Error for PageOnTerminal {}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// `-` and `/dev/stdout` are stdout; any other name is kept as typed, unchecked (a
    /// directory that does not exist included: that is the caller's check).
    #[test]
    fn dash_or_stdouts_own_name_is_stdout_and_another_path_is_kept() {
        assert_eq!(page_target(PathBuf::from("-")), PageTarget::Stdout);
        #[cfg(unix)]
        assert_eq!(
            page_target(PathBuf::from("/dev/stdout")),
            PageTarget::Stdout
        );
        let dir = tempfile::tempdir().expect("tempdir");
        for path in [
            dir.path().join("report.html"),
            dir.path().join("nodir/page.html"),
            PathBuf::from("-x"),
        ] {
            assert_eq!(page_target(path.clone()), PageTarget::File(path));
        }
        assert_eq!(
            page_target(Path::new("/dev/null").to_owned()),
            PageTarget::File("/dev/null".into()),
            "no one's own stdout"
        );
    }

    /// A terminal is refused, in the words both commands print; anything else is not.
    #[test]
    fn a_terminal_is_refused_the_page() {
        let refused = PageOnTerminal::refuse_if(true).expect_err("a terminal");
        assert_eq!(
            refused.to_string(),
            "`--html -` writes the report's page (HTML) to stdout, which is a terminal"
        );
        assert_eq!(
            refused.hint("usage.html"),
            "pipe it (`| w3m -T text/html`, `> usage.html`) or write a file: `--html FILE`"
        );
        assert_eq!(PageOnTerminal::refuse_if(false), Ok(()));
    }
}
