//! Which `--answer KEY=VALUE` keys the questions of a call never asked for: an answer
//! is matched to a question by its field's name, and one that names no field of any
//! question (`confrim`, or a field of another tool's) was dropped unsaid, the question
//! answered with its default or by the person at the prompt.

use std::collections::HashSet;

use crate::events::Question;

/// The most distinct field names kept for the "did you mean" of an unused answer: a
/// server asking 1,000 questions of thousands of fields each must not hold mur's
/// memory for a suggestion. Which answers were used is kept whatever the count.
const MAX_NAMES: usize = 1_000;

/// An `--answer` no question of the call asked for ([`crate::Client::unused_answers`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unused {
    /// The key as given (`confrim` of `--answer confrim=yes`); the value is not kept:
    /// it is the user's, and may be a secret.
    pub key: String,
    /// The asked field it is likely meant as ([`mur_core::choice_meant`]): `confirm`.
    pub meant: Option<String>,
}

/// What a call's questions asked, against the `--answer` keys given.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    /// Whether any question was asked.
    asked: bool,
    /// By the place of each answer given: whether a question has its key as a field.
    used: Vec<bool>,
    /// The fields asked, each once, at most [`MAX_NAMES`] of them, in the order asked
    /// (the "did you mean" takes the last of equals).
    names: Vec<String>,
    /// The same names, looked up for each field asked: searching the list instead
    /// was up to 1,000 comparisons a field, 10⁹ for 1,000 questions of many fields.
    named: HashSet<String>,
}

impl Fields {
    /// Counts `question` asked, and marks the `answers` whose key is one of its fields
    /// used: however it is answered (from `--answer`, at the prompt, or not at all).
    pub(crate) fn saw(&mut self, question: &Question, answers: &[(String, String)]) {
        self.asked = true;
        self.used.resize(answers.len(), false);
        for field in &question.fields {
            for (used, (key, _)) in self.used.iter_mut().zip(answers) {
                *used |= *key == field.name;
            }
            if self.names.len() < MAX_NAMES && !self.named.contains(&field.name) {
                self.named.insert(field.name.clone());
                self.names.push(field.name.clone());
            }
        }
    }

    /// The `answers` no question asked for, each key once, in the order given, each
    /// with the asked field it is likely meant as. None when no question was asked: a
    /// tool that asks only sometimes (`clearTodos`, when there is something to clear)
    /// may be given its answer beforehand, rightly.
    pub(crate) fn unused(&self, answers: &[(String, String)]) -> Vec<Unused> {
        if !self.asked {
            return Vec::new();
        }
        let mut unused: Vec<Unused> = Vec::new();
        for (at, (key, _)) in answers.iter().enumerate() {
            let used = self.used.get(at).copied().unwrap_or(false);
            if used || unused.iter().any(|u| u.key == *key) {
                continue;
            }
            let meant = mur_core::choice_meant(key, self.names.iter().map(String::as_str));
            unused.push(Unused {
                key: key.clone(),
                meant: meant.map(str::to_owned),
            });
        }
        unused
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    fn question(fields: &[&str]) -> Question {
        let properties: serde_json::Map<String, serde_json::Value> = fields
            .iter()
            .map(|f| ((*f).to_owned(), json!({ "type": "string" })))
            .collect();
        Question::from_params(&json!({
            "message": "?",
            "requestedSchema": { "type": "object", "properties": properties },
        }))
    }

    #[test]
    fn answers_no_question_asked_for_are_named_with_the_field_meant() {
        let given = answers(&[
            ("confirm", "yes"),
            ("comfirm", "no"),
            ("note", "hi"),
            ("Confirm", "x"),
            ("zzz", "1"),
        ]);
        let mut fields = Fields::default();
        fields.saw(&question(&["confirm"]), &given);
        fields.saw(&question(&["note", "confirm"]), &given);
        let unused = |key: &str, meant: Option<&str>| Unused {
            key: key.to_owned(),
            meant: meant.map(str::to_owned),
        };
        assert_eq!(
            fields.unused(&given),
            [
                unused("comfirm", Some("confirm")),
                unused("Confirm", Some("confirm")),
                unused("zzz", None),
            ]
        );
    }

    /// A call that asked nothing used no answer, and says nothing of them: the tool may
    /// ask only sometimes.
    #[test]
    fn a_call_that_asked_nothing_has_no_unused_answers() {
        let given = answers(&[("confirm", "yes")]);
        assert_eq!(Fields::default().unused(&given), []);
        let mut fields = Fields::default();
        fields.saw(&question(&[]), &given);
        assert_eq!(fields.unused(&given).len(), 1);
    }

    /// Questions asking the same 999 fields again keep each name once, in the order asked,
    /// and a near miss is still said. (How fast that is, a set lookup where a list was
    /// searched for each field, is the benchmark's to measure, not a test's.)
    #[test]
    fn many_questions_of_many_fields_keep_each_name_once() {
        // One short of the cap, which stops the search: each field is looked up.
        let names: Vec<String> = (0..MAX_NAMES - 1).map(|i| format!("field{i:04}")).collect();
        let asked = question(&names.iter().map(String::as_str).collect::<Vec<_>>());
        let given = answers(&[("fieldd0998", "x")]);
        let mut fields = Fields::default();
        for _ in 0..3 {
            fields.saw(&asked, &given);
        }
        assert_eq!(fields.names, names);
        let unused = fields.unused(&given);
        assert_eq!(unused[0].meant.as_deref(), Some("field0998"));
    }
}
