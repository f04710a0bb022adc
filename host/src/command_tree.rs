//! The command tree as a command line walks it: the tree [`built`], and the
//! subcommands and options a line's words give ([`given_options`]), read as
//! clap_complete reads them: what completion leaves out, and whose usage and options a
//! refusal shows ([`reached`]).

use std::ffi::OsString;

/// An option given on the command line: the depth of the (sub)command it was given
/// to, its id, and whether it is global (so given to every subcommand below too).
pub type Given = (usize, clap::Id, bool);

/// The subcommands `words` (the binary's name first) walk into, and the options they
/// give on the way, read as clap_complete reads them: a long option (`--name`,
/// `--name=value`) or a cluster of short ones (`-vq`), the next word its value when it
/// takes one; no option after `--`.
pub fn given_options(cmd: &clap::Command, words: &[OsString]) -> (Vec<String>, Vec<Given>) {
    let mut current = cmd;
    let mut path = Vec::new();
    let mut given = Vec::new();
    let mut words = words.iter().skip(1).map(|w| w.to_str());
    while let Some(word) = words.next() {
        let Some(word) = word else { continue };
        let depth = path.len();
        if word == "--" {
            break;
        } else if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            let named = |a: &&clap::Arg| {
                a.get_long_and_visible_aliases()
                    .is_some_and(|longs| longs.contains(&name))
            };
            if let Some(arg) = current.get_arguments().find(named) {
                if takes_value(arg) && !inline {
                    words.next();
                }
                given.push((depth, arg.get_id().clone(), arg.is_global_set()));
            }
        } else if let Some(shorts) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            for (at, short) in shorts.char_indices() {
                let named = |a: &&clap::Arg| {
                    a.get_short_and_visible_aliases()
                        .is_some_and(|s| s.contains(&short))
                };
                let Some(arg) = current.get_arguments().find(named) else {
                    break;
                };
                given.push((depth, arg.get_id().clone(), arg.is_global_set()));
                if takes_value(arg) {
                    if at + short.len_utf8() == shorts.len() {
                        words.next();
                    }
                    break;
                }
            }
        } else if let Some(sub) = current.find_subcommand(word) {
            path.push(sub.get_name().to_owned());
            current = sub;
        }
    }
    (path, given)
}

fn takes_value(arg: &clap::Arg) -> bool {
    arg.get_num_args().is_some_and(|n| n.takes_values())
}

/// The (sub)command of mur's tree that `words` (the binary's name first) walk into
/// ([`given_options`]), built: its own options and the global ones it takes.
pub fn reached(words: &[OsString]) -> Option<clap::Command> {
    let tree = built(crate::cli::command());
    let (path, _) = given_options(&tree, words);
    path.iter()
        .try_fold(&tree, |command, name| command.find_subcommand(name))
        .cloned()
}

/// `cmd` built: every subcommand defined (some are defined only when built).
pub fn built(mut cmd: clap::Command) -> clap::Command {
    cmd.build();
    cmd
}
