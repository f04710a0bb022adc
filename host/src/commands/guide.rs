//! `mur devtools guide`: the guide for agents (docs/agents.md), built into the binary.

use crate::output;
use mur_core::Result;

/// docs/agents.md, as it was when `mur` was built.
pub const GUIDE: &str = include_str!("../../../docs/agents.md");

/// How the line starts that ends what an agent driving an app reads, and says how to
/// print the rest. The eval charges what `guide` prints to the CLI before an agent's
/// first call: the whole file (the catalog's JSON, `bridge`, every host option) was
/// more than MCP's `tools/list`.
const LAST_LINE: &str = "That is what driving an app takes;";

/// The guide up to and with the line starting [`LAST_LINE`]; the whole guide if no
/// line does (a test holds docs/agents.md to having one).
fn driving(guide: &str) -> &str {
    let Some(start) = guide.find(&format!("\n{LAST_LINE}")) else {
        return guide;
    };
    match guide[start + 1..].find('\n') {
        Some(end) => &guide[..start + 1 + end + 1],
        None => guide,
    }
}

/// Prints the guide on stdout: what driving an app takes, or with `all` the whole.
pub fn run(all: bool) -> Result<()> {
    let text = if all { GUIDE } else { driving(GUIDE) };
    output::stdout(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guide_has_the_line_its_short_form_ends_with() {
        let short = driving(GUIDE);
        assert!(short.len() < GUIDE.len(), "no line starts `{LAST_LINE}`");
        let last = short.lines().last().unwrap_or_default();
        assert!(
            last.starts_with(LAST_LINE) && last.contains("`mur devtools guide --all`"),
            "{last}"
        );
        assert_eq!(driving("a\nb\n"), "a\nb\n");
        assert_eq!(
            driving(&format!("a\n{LAST_LINE} x\nb\n")),
            format!("a\n{LAST_LINE} x\n")
        );
    }
}
