//! The footer under every verb's `--help` (a named, data or derived verb's, and the
//! help `verbs info` shows): where the host options go when typed after the verb's name.

use mur_verbs::VerbSpec;

use crate::cli::HostArgs;
use crate::options::declared;

/// A verb's `--help` text followed by a line saying that the host options work after
/// the verb's name too, and where they are listed: the list itself, under every verb's
/// help, was 42% of the bytes of all the standard verbs' helps that an agent reads. A
/// host option the verb declares itself is named, with where the host's one goes
/// instead (before the verb's name, see [`crate::options::extract_host_options`]); the
/// names come from the clap tree, so they cannot drift from what is accepted.
pub fn with_host_options(help: &str, verb: &str, spec: Option<&VerbSpec>) -> String {
    use clap::Args as _;
    let host = HostArgs::augment_args(clap::Command::new("mur"));
    let mut text = help.trim_end().to_owned();
    text.push_str(
        "\n\nHost options go after the verb's name too; `mur devtools --help` lists them.",
    );
    for arg in host.get_arguments().filter(|arg| !arg.is_hide_set()) {
        // `-v` and `-q` are the host's even where a verb declares `--verbose`: a verb
        // declares long options only.
        let Some(long) = arg.get_long() else { continue };
        if declared(spec, long).is_none() {
            continue;
        }
        let usage = match arg.get_value_names() {
            Some([value, ..]) if arg.get_action().takes_values() => format!("--{long} {value}"),
            _ => format!("--{long}"),
        };
        text.push_str(&format!(
            "\n--{long} is the verb's own here; the host's goes before it: mur devtools {usage} {verb}"
        ));
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use mur_verbs::{Param, ValueKind};

    /// The footer is two lines, not the list of every host option: that list was 42% of
    /// the bytes of the standard verbs' helps; a host option the verb declares is named.
    #[test]
    fn a_verbs_help_ends_with_where_the_host_options_go() {
        let spec = VerbSpec {
            options: vec![Param::new("project", "P", ValueKind::Text, "")],
            ..VerbSpec::default()
        };
        assert_eq!(
            with_host_options("Usage: mur devtools x\n\n", "x", Some(&spec)),
            "Usage: mur devtools x\n\n\
             Host options go after the verb's name too; `mur devtools --help` lists them.\n\
             --project is the verb's own here; the host's goes before it: \
             mur devtools --project PATH x\n"
        );
        // A verb's own `--verbose` leaves `-v` to the host.
        let verbose = VerbSpec {
            options: vec![Param {
                name: "verbose".into(),
                kind: ValueKind::Flag,
                ..spec.options[0].clone()
            }],
            ..VerbSpec::default()
        };
        assert!(
            with_host_options("Usage: x", "x", Some(&verbose)).ends_with(
                "lists them.\n--verbose is the verb's own here; the host's goes before it: \
                 mur devtools --verbose x\n"
            )
        );
        // A 0.1 verb took `--timeout` as its own.
        assert!(
            with_host_options("Usage: x", "x", None)
                .ends_with("lists them.\n--timeout is the verb's own here; the host's goes before it: mur devtools --timeout MS x\n")
        );
        // One that declares none of them: the one line.
        assert_eq!(
            with_host_options("Usage: x", "x", Some(&VerbSpec::default())),
            "Usage: x\n\nHost options go after the verb's name too; `mur devtools --help` lists them.\n"
        );
    }
}
