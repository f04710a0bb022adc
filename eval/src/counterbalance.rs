//! The order a `both` condition names its two surfaces in, varied across runs
//! (`counterbalance = true`): an agent may favour whichever its instructions list first,
//! and a study measuring which surface it reaches for on its own must not mistake that
//! for a preference. A task's repeats read the instructions' list of surfaces as written
//! and reversed in turn (which comes first drawn from the seed and the task's id, never
//! its place in `--tasks`), and each run records which surface stood first.

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

/// Whether run `repeat` of task `task` (its id) in a study of `seed` reads the list
/// swapped: a function of those three alone, so the same study orders a task's runs the
/// same whatever else `--tasks` names or in what order. A task's repeats alternate, so
/// each order falls to half its runs; which order its odd repeats take is drawn from the
/// seed and its id. With an even number of repeats each order falls to exactly half a
/// condition's runs; with an odd number, each task's one extra run falls to either order
/// as its draw says — no function of one task alone can balance those across tasks.
pub fn swapped(seed: u64, task: &str, repeat: u32) -> bool {
    (draw(seed, task) + u64::from(repeat)).is_multiple_of(2)
}

/// A bit from `seed` and `task`: FNV-1a over both, then SplitMix64's finalizer (so the
/// low bit depends on every input byte). Written out rather than a library's hasher, whose
/// output may change between releases: a recorded seed must give the same orders later.
fn draw(seed: u64, task: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in seed.to_le_bytes().iter().chain(task.as_bytes()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (hash ^ (hash >> 31)) & 1
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

    const TASKS: [&str; 14] = [
        "about-title",
        "add-todo",
        "advanced-settings",
        "clear-todos",
        "count-to-three",
        "finish-todo",
        "first-warning",
        "focus-cache",
        "forest-theme",
        "restart",
        "scroll-log",
        "select-todo",
        "settings-screenshot",
        "updates-off",
    ];

    #[test]
    fn a_tasks_order_is_its_own_whatever_the_task_list() {
        // What `--tasks` names, in what order, or with what else, changes nothing: the
        // order is the seed's, the task's and the repeat's.
        let orders = |seed: u64, task: &str| -> Vec<bool> {
            (1..=4).map(|repeat| swapped(seed, task, repeat)).collect()
        };
        let pinned: Vec<Vec<bool>> = TASKS.iter().map(|t| orders(2026, t)).collect();
        let mut reversed = TASKS;
        reversed.reverse();
        for (task, order) in TASKS.iter().zip(&pinned) {
            assert_eq!(&orders(2026, task), order, "{task}");
        }
        for task in reversed {
            let at = TASKS.iter().position(|t| *t == task).unwrap_or_default();
            assert_eq!(orders(2026, task), pinned[at], "{task}");
        }
        // The seed draws them: another seed swaps some tasks' orders, not all, and the
        // seed 2026 gives these (pinned, so a change of the draw is seen).
        let other: Vec<Vec<bool>> = TASKS.iter().map(|t| orders(7, t)).collect();
        assert_ne!(other, pinned);
        let first_swapped: String = pinned
            .iter()
            .map(|order| if order[0] { 's' } else { '-' })
            .collect();
        assert_eq!(first_swapped, "--s-s-s-sssss-");
    }

    #[test]
    fn each_order_falls_to_half_a_tasks_runs() {
        for seed in [0, 1, 2026] {
            for task in TASKS {
                // A task's repeats alternate: half of an even number each way.
                for repeat in 1..=5u32 {
                    assert_ne!(
                        swapped(seed, task, repeat),
                        swapped(seed, task, repeat + 1),
                        "{seed} {task} {repeat}"
                    );
                }
            }
            // The first repeats are drawn both ways across the tasks.
            let first: Vec<bool> = TASKS.iter().map(|t| swapped(seed, t, 1)).collect();
            assert!(first.contains(&true) && first.contains(&false), "{seed}");
        }
    }
}
