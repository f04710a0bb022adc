//! What discovery has to say along the way (files skipped, a scan's progress), told to
//! the caller, who decides how it shows.

/// What discovery tells the user along the way; the binary decides how it shows.
pub trait Report {
    /// A one-line notice: a file skipped, a session that did not answer.
    fn notice(&mut self, message: String);
    /// A lockfile skipped as malformed (`why`): said as a notice that names the way to
    /// remove it, unless the caller is that way (`session clean`).
    fn malformed(&mut self, path: &std::path::Path, why: &str) {
        self.notice(format!(
            "skipping malformed lockfile `{}`: {why} (`mur devtools session clean` removes it)",
            path.display()
        ));
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
}
