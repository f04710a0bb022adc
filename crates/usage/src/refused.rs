//! The argv the verbs refused: mur's records of usage errors counted by verb and
//! shape of argv (options and how many other words, never their values), and the
//! shape as the report's tables show it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::{Kind, Outcome, Record};

/// How often a verb refused one shape of argv: what its callers reach for that it
/// does not take (seed 000 §10: the sign that a verb's argv shape is wrong).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refused {
    pub verb: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    /// The options, in the order typed.
    pub options: Vec<String>,
    /// The other words: positionals, and words after an option the verb does not know.
    pub positionals: u32,
    pub times: u64,
    pub last: String,
    /// For a verb that does not exist: the installed verb, command of mur's or verb of a
    /// session's tool (as [`crate::Report::reached`] shows them) that its name is nearest, when
    /// one is near — a typo rather than a verb callers expect. Its caller fills it in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nearest: Option<String>,
}

/// The most other words a refused argv spells out as `WORD`s.
const WORDS_SPELLED: u32 = 8;

/// The most characters of an argv a table's cell shows (the terminal's and the
/// page's): a shape is a verb and a few options, well under it; a word from an
/// older log or `--with-values` (120,000 `a`s) would widen every row of its table to
/// its length. The JSON keeps it whole.
pub const ARGV_CELL_CHARS: usize = 80;

/// `text` cut to [`ARGV_CELL_CHARS`] characters, `…` marking the cut.
pub(crate) fn cell(text: String) -> String {
    match text.char_indices().nth(ARGV_CELL_CHARS - 1) {
        Some((at, _)) if text.chars().count() > ARGV_CELL_CHARS => format!("{}…", &text[..at]),
        _ => text,
    }
}

impl Refused {
    /// The shape as a command line: `click --selector WORD`, a `WORD` for each other word,
    /// and `WORD ×N` past `WORDS_SPELLED` of them (a count read from a log is
    /// not spelled out four billion times).
    pub fn argv(&self) -> String {
        let mut line = self.verb.clone();
        for option in &self.options {
            line.push(' ');
            line.push_str(option);
        }
        match self.positionals {
            n if n > WORDS_SPELLED => line.push_str(&format!(" WORD ×{n}")),
            n => (0..n).for_each(|_| line.push_str(" WORD")),
        }
        line
    }

    /// The cells of its row in the report's tables: the argv (cut to
    /// `ARGV_CELL_CHARS`), how often, the last time.
    pub fn cells(&self) -> Vec<String> {
        vec![cell(self.argv()), self.times.to_string(), self.last.clone()]
    }

    /// [`Refused::cells`] and the nearest verb (`–` for none): a verb asked for's row.
    pub fn cells_with_nearest(&self) -> Vec<String> {
        let mut cells = self.cells();
        cells.push(cell(self.nearest.clone().unwrap_or_else(|| "–".to_owned())));
        cells
    }
}

/// The usage errors of `records` (side `cli`) by verb and argv shape, most frequent first.
pub fn refused<'a>(records: impl Iterator<Item = &'a Record>) -> Vec<Refused> {
    let mut by_shape: BTreeMap<(String, Vec<String>, u32), Refused> = BTreeMap::new();
    // A host command's too (`parity --bogus`), recorded under its name as a verb's is:
    // its own verdict is no usage error (`parity`'s exit 1 is recorded `ok`).
    let refusals = records.filter(|r| r.outcome == Outcome::UsageError);
    for record in refusals {
        let (Some(verb), Some(argv)) = (&record.verb, &record.argv) else {
            continue;
        };
        let key = (verb.clone(), argv.options.clone(), argv.positionals);
        let entry = by_shape.entry(key).or_insert_with(|| Refused {
            verb: verb.clone(),
            kind: record.kind,
            options: argv.options.clone(),
            positionals: argv.positionals,
            times: 0,
            last: String::new(),
            nearest: None,
        });
        entry.times += 1;
        if record.time > entry.last {
            entry.last.clone_from(&record.time);
        }
    }
    let mut refused: Vec<Refused> = by_shape.into_values().collect();
    refused.sort_by(|a, b| b.times.cmp(&a.times).then_with(|| a.argv().cmp(&b.argv())));
    refused
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Side, Surface, argv_shape};

    fn refusal(verb: &str, kind: Kind, argv: &[&str]) -> Record {
        let mut r = Record::new(Side::Cli, Surface::Cli, Outcome::UsageError, 1.0);
        r.verb = Some(verb.to_owned());
        r.kind = Some(kind);
        let argv: Vec<String> = argv.iter().map(|w| (*w).to_owned()).collect();
        r.argv = Some(argv_shape(&argv, |_| false, false));
        r
    }

    /// A host command's argv refused (`parity --bogus`) is listed as a verb's is: the
    /// verbs table counts it a usage error, and this list says which argv it was.
    #[test]
    fn a_host_command_s_refused_argv_is_listed_as_a_verb_s() {
        let records = [
            refusal("parity", Kind::Host, &["--bogus"]),
            refusal("state", Kind::Derived, &["--bogus"]),
            refusal("parity", Kind::Host, &["--bogus"]),
            refusal("session list", Kind::Host, &["--bogus"]),
        ];
        let listed: Vec<(String, Option<Kind>, u64)> = refused(records.iter())
            .into_iter()
            .map(|r| (r.argv(), r.kind, r.times))
            .collect();
        assert_eq!(
            listed,
            [
                ("parity --bogus".to_owned(), Some(Kind::Host), 2),
                ("session list --bogus".to_owned(), Some(Kind::Host), 1),
                ("state --bogus".to_owned(), Some(Kind::Derived), 1),
            ]
        );
    }
}
