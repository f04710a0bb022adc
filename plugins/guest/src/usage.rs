//! The usage text of a verb, composed from its [`About`] and [`Spec`] so that every
//! verb's `--help` has the same sections and no option goes undocumented.

use crate::About;
use crate::argv::{Kind, Opt, Spec, TIMEOUT};

const HELP: (&str, &str) = ("-h, --help", "print this help");

/// `Usage:` line, summary, details, arguments, options and an example.
pub fn usage(about: &About, spec: &Spec) -> String {
    let mut text = format!(
        "Usage: mur devtools {}\n\n{}\n",
        about.synopsis, about.summary
    );
    if !about.details.is_empty() {
        text += &format!("\n{}\n", about.details.trim_end());
    }
    let arguments: Vec<(String, &str)> = spec
        .positionals
        .iter()
        .map(|pos| (format!("<{}>", pos.name), pos.help))
        .collect();
    if !arguments.is_empty() {
        text += &section("Arguments", &arguments);
    }
    let options: Vec<(String, &str)> = spec
        .options
        .iter()
        .chain([&TIMEOUT])
        .map(|opt| (option_label(opt), opt.help))
        .chain([(HELP.0.to_owned(), HELP.1)])
        .collect();
    text += &section("Options", &options);
    text + &format!("\nExample:\n  {}\n", about.example)
}

fn option_label(opt: &Opt) -> String {
    match opt.kind {
        Kind::Flag => format!("--{}", opt.name),
        _ => format!("--{} {}", opt.name, opt.value),
    }
}

/// A titled two-column list, the help column aligned.
fn section(title: &str, rows: &[(String, &str)]) -> String {
    let width = rows.iter().map(|(label, _)| label.len()).max().unwrap_or(0);
    let mut text = format!("\n{title}:\n");
    for (label, help) in rows {
        text += &format!("  {label:width$}  {help}\n");
    }
    text
}
