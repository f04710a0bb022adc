//! What discovery has to say along the way (files skipped, a scan's progress), told to
//! the caller, who decides how it shows.

/// What discovery tells the user along the way; the binary decides how it shows.
pub trait Report {
    /// A one-line notice: a file skipped, a session that did not answer.
    fn notice(&mut self, message: String);
    /// A lockfile skipped as malformed (`why`): said as a notice that names the way to
    /// remove it, unless the caller is that way (`session clean`).
    fn malformed(&mut self, path: &std::path::Path, why: &str) {
        // The file's name, and a parser's words that may quote the file: on this line.
        self.notice(format!(
            "skipping malformed lockfile `{}`: {} (`mur devtools session clean` removes it)",
            mur_core::text::escape_value(&path.to_string_lossy()),
            mur_core::text::escape_value(why)
        ));
    }
    /// `count` more malformed lockfiles skipped than were named ([`Self::malformed`]):
    /// said as one notice, unless the caller is the way to remove them.
    fn more_malformed(&mut self, count: usize) {
        self.notice(format!(
            "and {count} more malformed lockfiles were skipped (`mur devtools session clean` \
             removes them)"
        ));
    }
    /// A one-line note: what discovery did that the user should know of (the lockfile
    /// of a session that ended, removed). Nothing by default.
    fn note(&mut self, _message: String) {}
    /// Whether what it is told reaches the user. A lookup that says nothing (tab
    /// completion, a hint's quiet look for a session) leaves a crashed session's
    /// lockfile where it is, for the next command that says so when it removes it:
    /// removed unsaid, the session of an app that crashed would read as one that never ran.
    fn tells(&self) -> bool {
        true
    }
    /// `--auto`: `done` of `total` ports probed so far.
    fn scan_progress(&self, _done: usize, _total: usize) {}
    /// `--auto`: the scan is over.
    fn scan_finished(&self) {}
}

/// A [`Report`] that drops everything.
pub struct Silent;

impl Report for Silent {
    fn notice(&mut self, _message: String) {}
    fn tells(&self) -> bool {
        false
    }
}

/// `report`, each notice said once: discovery looks again and again while a session
/// is on its way ([`crate::resolve`]), and what it skips is the same every time.
pub(crate) struct Once<'a> {
    report: &'a mut dyn Report,
    said: std::collections::HashSet<String>,
}

impl<'a> Once<'a> {
    pub(crate) fn new(report: &'a mut dyn Report) -> Self {
        Self {
            report,
            said: std::collections::HashSet::new(),
        }
    }
}

impl Report for Once<'_> {
    fn notice(&mut self, message: String) {
        if self.said.insert(message.clone()) {
            self.report.notice(message);
        }
    }

    fn malformed(&mut self, path: &std::path::Path, why: &str) {
        if self.said.insert(format!("{}\0{why}", path.display())) {
            self.report.malformed(path, why);
        }
    }

    fn more_malformed(&mut self, count: usize) {
        if self.said.insert(format!("\0more malformed {count}")) {
            self.report.more_malformed(count);
        }
    }

    fn note(&mut self, message: String) {
        if self.said.insert(message.clone()) {
            self.report.note(message);
        }
    }

    fn tells(&self) -> bool {
        self.report.tells()
    }

    fn scan_progress(&self, done: usize, total: usize) {
        self.report.scan_progress(done, total);
    }

    fn scan_finished(&self) {
        self.report.scan_finished();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A [`Report`] that keeps what it is told (the tests of every module that reports).
    #[derive(Default)]
    pub(crate) struct Said(pub(crate) Vec<String>);

    impl Report for Said {
        fn notice(&mut self, message: String) {
            self.0.push(message);
        }
    }

    /// Each look while a session is on its way finds the same files to skip: said once.
    #[test]
    fn once_says_each_notice_once() {
        let mut said = Said::default();
        let mut once = Once::new(&mut said);
        for _ in 0..3 {
            once.notice("refusing lockfile directory `/tmp/x`".to_owned());
            once.malformed(std::path::Path::new("/run/a.json"), "not JSON");
        }
        once.notice("another".to_owned());
        assert_eq!(
            said.0,
            [
                "refusing lockfile directory `/tmp/x`",
                "skipping malformed lockfile `/run/a.json`: not JSON (`mur devtools session \
                 clean` removes it)",
                "another"
            ]
        );
    }
}
