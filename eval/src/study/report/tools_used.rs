//! "Tools used, by condition": the tools each condition's runs called, as a table of
//! `report.md` and of the page.

use std::collections::BTreeMap;

use super::cells::Section;
use super::rows::Rows;
use crate::words::plural;

/// The most tools "Tools used, by condition" lists: the rest are counted in a line.
const MAX_TOOLS: usize = 20;

/// "Tools used, by condition": per tool the sessions served (each run's `calls.tools`),
/// per condition, the runs made that called it and its calls: what an operator reads to
/// see what the agents reached for without `usage report --server-log`. It names tools,
/// not verbs (`wait` calls `waitFor`): which verbs no run called is
/// [`VerbsCalled`](super::verbs_called::VerbsCalled)'s.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolsUsed {
    /// The conditions with runs made, in the report's order, each with those runs.
    pub conditions: Vec<(String, u32)>,
    /// `(tool, [(runs that called it, calls)] in the order of conditions)`, most calls
    /// first.
    pub tools: Vec<(String, Vec<(u32, u64)>)>,
}

impl ToolsUsed {
    /// `None` when no run was made.
    pub(super) fn of(rows: &Rows<'_>) -> Option<Self> {
        let conditions: Vec<(String, u32)> = rows
            .conditions
            .iter()
            .filter(|row| row.runs > 0)
            .map(|row| (row.condition.clone(), row.runs))
            .collect();
        if conditions.is_empty() {
            return None;
        }
        let mut by_tool: BTreeMap<String, Vec<(u32, u64)>> = BTreeMap::new();
        for (index, (condition, _)) in conditions.iter().enumerate() {
            for (tool, calls) in rows.made(condition).flat_map(|r| &r.calls.tools) {
                let cells = by_tool
                    .entry(tool.clone())
                    .or_insert_with(|| vec![(0, 0); conditions.len()]);
                cells[index].0 += 1;
                cells[index].1 += u64::from(*calls);
            }
        }
        let mut tools: Vec<(String, Vec<(u32, u64)>)> = by_tool.into_iter().collect();
        // Stable: equal totals stay in the tools' names' order.
        tools.sort_by_key(|(_, cells)| std::cmp::Reverse(cells.iter().map(|c| c.1).sum::<u64>()));
        Some(Self { conditions, tools })
    }

    /// The table's header and its rows, at most [`MAX_TOOLS`]: `2/3 · 7` is 2 of the
    /// condition's 3 runs called the tool, 7 calls in all; `–` none did.
    fn table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let header = std::iter::once("tool".to_owned())
            .chain(self.conditions.iter().map(|(c, _)| c.clone()))
            .collect();
        let rows =
            self.tools
                .iter()
                .take(MAX_TOOLS)
                .map(|(tool, cells)| {
                    let cells = cells.iter().zip(&self.conditions).map(
                        |((runs, calls), (_, of))| match runs {
                            0 => "–".to_owned(),
                            runs => format!("{runs}/{of} · {calls}"),
                        },
                    );
                    std::iter::once(tool.clone()).chain(cells).collect()
                })
                .collect();
        (header, rows)
    }

    /// What the table does not show: no call at all, the tools past [`MAX_TOOLS`].
    fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.tools.is_empty() {
            lines.push("No run made a call the session served.".to_owned());
        }
        if let Some(rest) = self.tools.get(MAX_TOOLS..).filter(|rest| !rest.is_empty()) {
            let calls: u64 = rest.iter().flat_map(|(_, cells)| cells).map(|c| c.1).sum();
            lines.push(format!(
                "(+{} more, {})",
                rest.len(),
                plural(calls as usize, "call")
            ));
        }
        lines
    }

    /// The section, as `report.md` and the page show it ([`Section::markdown`],
    /// [`Section::html`]).
    pub(super) fn section(&self) -> Section {
        let (header, rows) = self.table();
        Section {
            title: TOOLS_USED,
            says: TOOLS_USED_SAYS,
            table: (!rows.is_empty()).then_some((header, rows)),
            lines: self.lines(),
        }
    }
}

const TOOLS_USED: &str = "Tools used, by condition";
const TOOLS_USED_SAYS: &str = "Per tool the sessions served, of each condition's runs the \
    ones that called it, then its calls (`2/3 · 7`; `–` none), most calls first.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{markdown, page, rows, testing::*};

    #[test]
    fn the_tools_each_condition_used_are_tabled() {
        let run = |condition: &str, repeat: u32, tools: &[(&str, u32)]| {
            let mut run = result(condition, "count", true, 0, 100);
            run.id = format!("{condition}/count/{repeat}");
            run.calls.tools = tools.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect();
            run.calls.total = run.calls.tools.values().sum();
            run
        };
        let mut not_made = run("mcp", 3, &[("tree", 9)]);
        not_made.error = Some("the session never started".to_owned());
        let results = [
            run("cli-named", 1, &[("click", 4), ("state", 1)]),
            run("cli-named", 2, &[("click", 2)]),
            run("cli-named", 3, &[]),
            run("mcp", 1, &[("click", 3), ("noSuchTool", 1)]),
            run("mcp", 2, &[("state", 2)]),
            not_made,
        ];
        let rows = rows(&results, &["cli-named".to_owned(), "mcp".to_owned()]);
        let section = "## Tools used, by condition\n\n\
            Per tool the sessions served, of each condition's runs the ones that called it, \
            then its calls (`2/3 · 7`; `–` none), most calls first.\n\n\
            | tool | cli-named | mcp |\n|---|---|---|\n\
            | click | 2/3 · 6 | 1/2 · 3 |\n\
            | state | 1/3 · 1 | 1/2 · 2 |\n\
            | noSuchTool | – | 1/2 · 1 |\n";
        let used = ToolsUsed::of(&rows).expect("runs were made");
        assert_eq!(used.section().markdown(), section);
        assert!(
            markdown(&rows, "study").contains(&format!("\n{section}\n## Tasks")),
            "{}",
            markdown(&rows, "study")
        );
        let page = page(&rows, "study");
        assert!(page.contains("<h2>Tools used, by condition</h2>"), "{page}");
        assert!(page.contains("<td>noSuchTool</td>"), "{page}");
        // Past 20 tools, the rest are counted under the table.
        let many: Vec<(String, u32)> = (1..=22).map(|n| (format!("t{n:02}"), 1)).collect();
        let many: Vec<(&str, u32)> = many.iter().map(|(t, n)| (t.as_str(), *n)).collect();
        let made = [run("mcp", 1, &many)];
        let used = ToolsUsed::of(&super::super::rows(&made, &[])).expect("a run was made");
        let text = used.section().markdown();
        assert!(
            text.contains("| t20 | 1/1 · 1 |\n\n(+2 more, 2 calls)\n"),
            "{text}"
        );
        assert!(!text.contains("t21"), "{text}");
        // No run made: no section.
        let none = [results[5].clone()];
        assert_eq!(ToolsUsed::of(&super::super::rows(&none, &[])), None);
    }
}
