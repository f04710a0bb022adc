//! The order a `both` condition names its two surfaces in, varied across runs
//! (`counterbalance = true`): an agent may favour whichever its instructions list first,
//! and a study measuring which surface it reaches for on its own must not mistake that
//! for a preference. Half the runs read the instructions' list of surfaces as written,
//! half reversed, and each run records which surface stood first.

use mur_core::{Error, Result};
use mur_usage::Surface;

/// Instructions whose one list of two items names the surfaces, one an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterbalanced {
    /// The text before the list, the two items (each its lines, newline-ended) and the
    /// text after it.
    before: String,
    items: [String; 2],
    after: String,
    /// The surface the first item, as written, names.
    first: Surface,
}

impl Counterbalanced {
    /// The list in `instructions` (lines starting `- `, each item's further lines
    /// indented): it must have two items, one naming the CLI (a word of `cli_words`),
    /// the other the MCP server (a word of `mcp_words`).
    pub fn parse(instructions: &str, cli_words: &[&str], mcp_words: &[&str]) -> Result<Self> {
        let refuse = |why: &str| {
            Error::usage(format!(
                "`counterbalance = true` needs instructions with one list of two items, one naming \
                 the CLI and one the MCP server: {why}"
            ))
        };
        let lines: Vec<&str> = instructions.split_inclusive('\n').collect();
        let start = lines
            .iter()
            .position(|line| line.starts_with("- "))
            .ok_or_else(|| refuse("there is no list (lines starting `- `)"))?;
        let mut items: Vec<String> = Vec::new();
        let mut end = start;
        while let Some(line) = lines.get(end) {
            if line.starts_with("- ") {
                items.push((*line).to_owned());
            } else if line.starts_with("  ") && !line.trim().is_empty() {
                if let Some(item) = items.last_mut() {
                    item.push_str(line);
                }
            } else {
                break;
            }
            end += 1;
        }
        let [one, two]: [String; 2] = items
            .try_into()
            .map_err(|items: Vec<String>| refuse(&format!("its list has {} items", items.len())))?;
        let names = |item: &str| {
            let says = |words: &[&str]| words.iter().any(|word| item.contains(word));
            (says(cli_words), says(mcp_words))
        };
        let first = match (names(&one), names(&two)) {
            ((true, true), _) | (_, (true, true)) => {
                return Err(refuse("an item names both surfaces"));
            }
            ((true, false), (false, true)) => Surface::Cli,
            ((false, true), (true, false)) => Surface::Mcp,
            _ => return Err(refuse("its items do not name one surface each")),
        };
        Ok(Self {
            before: lines[..start].concat(),
            items: [one, two],
            after: lines[end..].concat(),
            first,
        })
    }

    /// The instructions of a run, and the surface they name first: as written, or with
    /// the two items swapped.
    pub fn text(&self, swapped: bool) -> (String, Surface) {
        let [one, two] = &self.items;
        let (first, second, surface) = if swapped {
            (two, one, other(self.first))
        } else {
            (one, two, self.first)
        };
        let text = format!("{}{first}{second}{}", self.before, self.after);
        (text, surface)
    }
}

fn other(surface: Surface) -> Surface {
    match surface {
        Surface::Cli => Surface::Mcp,
        Surface::Mcp => Surface::Cli,
    }
}

/// Whether run `repeat` of task number `task` reads the list swapped: alternating by
/// repeat, and by task too, so that each order falls to half the runs of a condition
/// (to one more or one fewer when the count is odd) whatever the number of repeats.
pub fn swapped(task: usize, repeat: u32) -> bool {
    (task + repeat as usize).is_multiple_of(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLI: [&str; 1] = ["mur devtools"];
    const MCP: [&str; 1] = ["MCP server"];

    const TEXT: &str = "# The app\n\nTwo ways in:\n\n\
        - The MCP server `s`, whose tools act on the app.\n\
        - The shell: `mur devtools VERB`, one call per\n  command.\n\
        \nBoth reach the same session.\n";

    #[test]
    fn the_two_items_are_read_as_written_or_swapped_and_say_which_surface_is_first() {
        let order = Counterbalanced::parse(TEXT, &CLI, &MCP).expect("parsed");
        assert_eq!(order.text(false), (TEXT.to_owned(), Surface::Mcp));
        let swapped = "# The app\n\nTwo ways in:\n\n\
            - The shell: `mur devtools VERB`, one call per\n  command.\n\
            - The MCP server `s`, whose tools act on the app.\n\
            \nBoth reach the same session.\n";
        assert_eq!(order.text(true), (swapped.to_owned(), Surface::Cli));
        // Swapped back, the text is the one written.
        let again = Counterbalanced::parse(swapped, &CLI, &MCP).expect("parsed");
        assert_eq!(again.text(true).0, TEXT);
    }

    #[test]
    fn instructions_without_one_item_a_surface_are_refused() {
        let refused = |text: &str| {
            Counterbalanced::parse(text, &CLI, &MCP)
                .expect_err(text)
                .message()
                .split(": ")
                .last()
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(
            refused("no list\n"),
            "there is no list (lines starting `- `)"
        );
        assert_eq!(
            refused("- MCP server\n- mur devtools\n- a third\n"),
            "its list has 3 items"
        );
        assert_eq!(
            refused("- MCP server\n- the MCP server again\n"),
            "its items do not name one surface each"
        );
        assert_eq!(
            refused("- MCP server or mur devtools\n- mur devtools\n"),
            "an item names both surfaces"
        );
    }

    #[test]
    fn each_order_falls_to_half_the_runs_whatever_the_repeats() {
        for repeats in 1..=4u32 {
            let tasks = 14;
            let swapped_runs = (0..tasks)
                .flat_map(|task| (1..=repeats).map(move |repeat| swapped(task, repeat)))
                .filter(|&s| s)
                .count();
            assert_eq!(
                swapped_runs * 2,
                tasks * repeats as usize,
                "{repeats} repeats"
            );
        }
        // Within a task, the repeats alternate.
        assert_ne!(swapped(3, 1), swapped(3, 2));
    }
}
