//! `mur completions <shell>`: a completion script for the whole command tree,
//! with the installed plugin verbs added as `devtools` subcommands so they
//! complete like the host's own.

use clap_complete::Shell;

use crate::cli;
use crate::output;
use mur_core::Result;

/// Prints the completion script for `shell` on stdout.
pub fn run(shell: Shell, verbs: &[(String, String)]) -> Result<()> {
    let mut cmd = with_verbs(cli::command(), verbs);
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "mur", &mut script);
    output::stdout(&script)
}

/// The command tree with each `(name, summary)` verb under `devtools`.
fn with_verbs(cmd: clap::Command, verbs: &[(String, String)]) -> clap::Command {
    cmd.mut_subcommand("devtools", |mut devtools| {
        for (name, summary) in verbs {
            if devtools.find_subcommand(name).is_none() {
                devtools = devtools.subcommand(verb_command(name, summary));
            }
        }
        devtools
    })
}

/// A completion-only command for a plugin verb; its argv stays the verb's own.
fn verb_command(name: &str, summary: &str) -> clap::Command {
    // clap names are `&'static str`; this process prints one script and exits.
    let name: &'static str = Box::leak(name.to_owned().into_boxed_str());
    let args = clap::Arg::new("args")
        .num_args(0..)
        .trailing_var_arg(true)
        .allow_hyphen_values(true);
    clap::Command::new(name)
        .about(summary.to_owned())
        .disable_help_flag(true)
        .arg(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(shell: Shell, verbs: &[(String, String)]) -> String {
        let mut cmd = with_verbs(cli::command(), verbs);
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut cmd, "mur", &mut out);
        String::from_utf8(out).expect("utf-8 script")
    }

    #[test]
    fn installed_verbs_complete_under_devtools() {
        let verbs = [("bump".to_owned(), "Click the increment button".to_owned())];
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let text = script(shell, &verbs);
            assert!(text.contains("bump"), "{shell}: no `bump` in\n{text}");
            assert!(
                text.contains("session"),
                "{shell}: no host verbs in\n{text}"
            );
        }
        assert!(!script(Shell::Bash, &[]).contains("bump"));
    }

    #[test]
    fn a_verb_named_like_a_host_verb_is_not_added_twice() {
        let verbs = [("call".to_owned(), "shadow".to_owned())];
        with_verbs(cli::command(), &verbs).debug_assert();
    }
}
