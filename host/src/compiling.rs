//! The note that a verb's component is being compiled for this machine, said only
//! for a big one (tens of seconds, so the wait is not taken for a hang): when `verbs
//! add` installs it, and when a verb about to run has no cached code.

use std::path::Path;

// A component this big takes tens of seconds to compile, once: said on stderr, so
// the wait is not mistaken for a hang (`-q` hides it, as progress).
use mur_verbs::manage::SLOW_COMPILE_BYTES;

use crate::output;

/// Says, for `verbs add`, that the component `file` (`bytes` long) is being compiled.
pub fn say(file: &Path, bytes: usize, quiet: bool) {
    let what = format!("`{}`", file.display());
    if let Some(line) = note(&what, bytes, quiet, "") {
        output::diagnostic(&line);
    }
}

/// [`say`] for a verb about to run, whose compiled code is not cached
/// (a new `mur` compiles each verb again; a cleared cache; a changed file): said
/// as `verbs add` says it, with where the wait falls.
pub fn say_verb(verb: &str, bytes: usize) {
    let what = format!("verb `{verb}`");
    let when = " (before its call: `--timeout` bounds the call alone)";
    if let Some(line) = note(&what, bytes, false, when) {
        output::diagnostic(&line);
    }
}

/// What [`say`] says of compiling `what` (`bytes` long), if anything,
/// ending with `when`.
fn note(what: &str, bytes: usize, quiet: bool, when: &str) -> Option<String> {
    (bytes >= SLOW_COMPILE_BYTES && !quiet).then(|| {
        format!(
            "note: compiling {what} ({}) for this machine, once: this takes tens of seconds{when}",
            mur_core::settings::human_bytes(bytes as u64)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A big component's compile is said (a note, as progress is), unless `-q`; a
    /// small one's, which takes a second, is not.
    #[test]
    fn only_a_big_components_compile_is_said_and_q_hides_it() {
        let file = "`shout.wasm`";
        assert_eq!(
            note(file, 12 << 20, false, "").as_deref(),
            Some(
                "note: compiling `shout.wasm` (12 MiB) for this machine, once: this takes tens of seconds"
            )
        );
        assert_eq!(note(file, 12 << 20, true, ""), None);
        assert_eq!(note(file, 200 << 10, false, ""), None);
    }
}
