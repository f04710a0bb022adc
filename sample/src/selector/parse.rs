//! Parses selector text into a [`Selector`], with errors that name the problem and where it is.

use crate::element::Kind;

use super::among::Among;
use super::ast::{ATTRIBUTES, AttrOp, Combinator, Filter, Selector, Step};
use super::meant::{Meant, meant, shown};

/// Parse `text`; errors read like `bad selector `#`: expected an id after `#` at character 2`.
/// Tools parse among the elements ([`parse_in`]), which a bare word's hint is drawn from.
#[cfg(test)]
pub fn parse(text: &str) -> Result<Selector, String> {
    parse_in(text, None)
}

/// [`parse`] for a selector to be matched among `scope`'s elements: a bare word that is
/// no type is told as what it likely names there (an id, an element's text).
pub fn parse_in(text: &str, scope: Option<Among>) -> Result<Selector, String> {
    let mut parser = Parser {
        chars: text.chars().collect(),
        pos: 0,
        scope,
        hint: None,
    };
    parser.selector().map_err(|(pos, problem)| {
        let hint = parser
            .hint
            .map(|hint| format!("; {hint}"))
            .unwrap_or_default();
        format!(
            "bad selector `{text}`: {problem} at character {}{hint}",
            pos + 1
        )
    })
}

/// A problem and the 0-based character index where it was found.
type ParseError = (usize, String);

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    scope: Option<Among<'a>>,
    /// What the selector was likely meant as, said after where the problem is.
    hint: Option<String>,
}

impl Parser<'_> {
    fn selector(&mut self) -> Result<Selector, ParseError> {
        self.skip_spaces();
        if self.at_end() {
            return Err((
                self.pos,
                "the selector is empty; try `#id` or a type like `Button`".into(),
            ));
        }
        let mut steps = vec![Step {
            combinator: Combinator::Descendant,
            filters: self.compound()?,
        }];
        while let Some(combinator) = self.combinator()? {
            steps.push(Step {
                combinator,
                filters: self.compound()?,
            });
        }
        Ok(Selector { steps })
    }

    /// Reads what separates two steps; `None` at the end of the selector.
    fn combinator(&mut self) -> Result<Option<Combinator>, ParseError> {
        let had_space = self.skip_spaces();
        if self.at_end() {
            return Ok(None);
        }
        if self.peek() == Some('>') {
            self.pos += 1;
            self.skip_spaces();
            if self.at_end() {
                return Err((self.pos, "expected a selector after `>`".into()));
            }
            return Ok(Some(Combinator::Child));
        }
        if had_space {
            return Ok(Some(Combinator::Descendant));
        }
        Err((self.pos, format!("unexpected `{}`", self.chars[self.pos])))
    }

    fn compound(&mut self) -> Result<Vec<Filter>, ParseError> {
        let mut filters = Vec::new();
        let mut wildcard = false;
        match self.peek() {
            Some('*') => {
                self.pos += 1;
                wildcard = true;
            }
            Some(c) if c.is_ascii_alphabetic() => filters.push(self.kind()?),
            _ => {}
        }
        loop {
            let filter = match self.peek() {
                Some('#') => self.id()?,
                Some('[') => self.attribute()?,
                Some(':') => self.pseudo()?,
                _ => break,
            };
            filters.push(filter);
        }
        if filters.is_empty() && !wildcard {
            let found = self
                .peek()
                .map_or("the end".to_owned(), |c| format!("`{c}`"));
            return Err((
                self.pos,
                format!("expected `#id`, a type, `[attr=\"value\"]` or `:nth(n)`, found {found}"),
            ));
        }
        Ok(filters)
    }

    fn kind(&mut self) -> Result<Filter, ParseError> {
        let start = self.pos;
        let name = self.identifier();
        if let Some(kind) = Kind::from_name(&name) {
            return Ok(Filter::Kind(kind));
        }
        let problem = format!("unknown element type `{name}`");
        if let Some(hint) = self.bare_word(&name) {
            // The hint says what the word is: the list of types would be noise.
            self.hint = Some(hint);
            return Err((start, problem));
        }
        self.hint = Some(format!(
            "an id is written `#{name}`, an element by its text `:text(\"{name}\")`"
        ));
        let known = Kind::ALL.map(Kind::name).join(", ");
        Err((start, format!("{problem} (known: {known})")))
    }

    /// What a bare word that is no type was likely meant as, when it can be told: an id
    /// whose `#` was left off (or eaten by a shell), an element's text (`Add` for the
    /// button that says it) or name, told as what it names among the elements searched
    /// so that the form suggested matches; else a type mistyped (`Buton`).
    fn bare_word(&self, word: &str) -> Option<String> {
        let element = self.scope.and_then(|among| {
            let meant = meant(among.tree, among.scope, word)?;
            let hint = match &meant {
                Meant::Id(id) if id == word => format!("an id is written `#{word}`"),
                Meant::Id(id) => format!("did you mean the id `#{id}`?"),
                Meant::TextOf(id) => format!(
                    "an element by its text is written `:text(\"{word}\")` (`#{id}` has it)"
                ),
                Meant::NameOf { id, name } => format!(
                    "an element by its name is written `[name=\"{name}\"]` (`#{id}` has it)"
                ),
            };
            Some(shown(among, &meant, hint))
        });
        let lower = word.to_lowercase();
        element.or_else(|| {
            Kind::ALL
                .into_iter()
                .find(|kind| mur_core::is_typo_of(&lower, &kind.name().to_lowercase()))
                .map(|kind| format!("did you mean the type `{}`?", kind.name()))
        })
    }

    fn id(&mut self) -> Result<Filter, ParseError> {
        self.pos += 1;
        let id = self.identifier();
        if id.is_empty() {
            return Err((self.pos, "expected an id after `#`".into()));
        }
        Ok(Filter::Id(id))
    }

    fn attribute(&mut self) -> Result<Filter, ParseError> {
        self.pos += 1;
        self.skip_spaces();
        let start = self.pos;
        let name = self.identifier();
        if !ATTRIBUTES.contains(&name.as_str()) {
            let problem = if name.is_empty() {
                "expected an attribute name after `[`".to_owned()
            } else {
                format!("unknown attribute `{name}`")
            };
            return Err((
                start,
                format!("{problem} (known: {})", ATTRIBUTES.join(", ")),
            ));
        }
        self.skip_spaces();
        let op = self.attribute_op()?;
        self.skip_spaces();
        let value = self.value()?;
        self.skip_spaces();
        self.expect(']', "to close the attribute")?;
        Ok(Filter::Attribute { name, op, value })
    }

    fn attribute_op(&mut self) -> Result<AttrOp, ParseError> {
        if self.eat('=') {
            return Ok(AttrOp::Equals);
        }
        if self.peek() == Some('*') && self.chars.get(self.pos + 1) == Some(&'=') {
            self.pos += 2;
            return Ok(AttrOp::Contains);
        }
        Err((
            self.pos,
            "expected `=` or `*=` after the attribute name".into(),
        ))
    }

    fn pseudo(&mut self) -> Result<Filter, ParseError> {
        self.pos += 1;
        let start = self.pos;
        let name = self.identifier();
        let filter = match name.as_str() {
            "nth" => {
                self.expect('(', "after `:nth`")?;
                self.skip_spaces();
                Filter::Nth(self.number()?)
            }
            "text" => {
                self.expect('(', "after `:text`")?;
                self.skip_spaces();
                Filter::Text(self.value()?)
            }
            _ => {
                return Err((
                    start,
                    format!("unknown pseudo-class `:{name}` (known: `:nth(n)`, `:text(\"…\")`)"),
                ));
            }
        };
        self.skip_spaces();
        self.expect(')', &format!("to close `:{name}(`"))?;
        Ok(filter)
    }

    fn number(&mut self) -> Result<usize, ParseError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits: String = self.chars[start..self.pos].iter().collect();
        digits.parse().map_err(|_| {
            (
                start,
                "expected a number (0-based index) in `:nth(…)`".into(),
            )
        })
    }

    /// A quoted string (`"…"` or `'…'`, backslash escapes) or a bare word.
    fn value(&mut self) -> Result<String, ParseError> {
        let Some(quote) = self.peek().filter(|c| *c == '"' || *c == '\'') else {
            let word = self.identifier();
            return if word.is_empty() {
                Err((self.pos, "expected a value, e.g. `\"text\"`".into()))
            } else {
                Ok(word)
            };
        };
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            match self.next_char() {
                None => {
                    return Err((
                        start,
                        format!("unterminated string starting with `{quote}`"),
                    ));
                }
                Some('\\') => value.extend(self.next_char()),
                Some(c) if c == quote => return Ok(value),
                Some(c) => value.push(c),
            }
        }
    }

    fn identifier(&mut self) -> String {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
        {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    fn expect(&mut self, wanted: char, purpose: &str) -> Result<(), ParseError> {
        if self.eat(wanted) {
            return Ok(());
        }
        let found = self
            .peek()
            .map_or("the end".to_owned(), |c| format!("`{c}`"));
        Err((
            self.pos,
            format!("expected `{wanted}` {purpose}, found {found}"),
        ))
    }

    fn eat(&mut self, wanted: char) -> bool {
        let matched = self.peek() == Some(wanted);
        if matched {
            self.pos += 1;
        }
        matched
    }

    /// Skips whitespace; says whether there was any.
    fn skip_spaces(&mut self) -> bool {
        let start = self.pos;
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
        self.pos > start
    }

    fn next_char(&mut self) -> Option<char> {
        let c = self.peek();
        self.pos += usize::from(c.is_some());
        c
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_compound_steps_and_combinators() {
        let selector = parse("  List#todo-list > ListItem[text='a \\'b\\'']:nth(2) :text(\"x\") ")
            .expect("valid");
        assert_eq!(selector.steps.len(), 3);
        assert_eq!(
            selector.steps[0].filters,
            [Filter::Kind(Kind::List), Filter::Id("todo-list".into())]
        );
        assert_eq!(selector.steps[1].combinator, Combinator::Child);
        let attribute = Filter::Attribute {
            name: "text".into(),
            op: AttrOp::Equals,
            value: "a 'b'".into(),
        };
        assert_eq!(
            selector.steps[1].filters,
            [Filter::Kind(Kind::ListItem), attribute, Filter::Nth(2)]
        );
        assert_eq!(selector.steps[2].combinator, Combinator::Descendant);
        assert_eq!(selector.steps[2].filters, [Filter::Text("x".into())]);
        assert_eq!(parse("*").expect("valid").steps[0].filters, []);
        assert_eq!(
            parse("button").expect("valid").steps[0].filters,
            [Filter::Kind(Kind::Button)]
        );
    }

    #[test]
    fn errors_name_the_problem_and_position() {
        let cases = [
            (
                "#",
                "bad selector `#`: expected an id after `#` at character 2",
            ),
            (
                "",
                "bad selector ``: the selector is empty; try `#id` or a type like `Button` at character 1",
            ),
            (
                "#a >",
                "bad selector `#a >`: expected a selector after `>` at character 5",
            ),
            (
                "[name=\"x\"",
                "bad selector `[name=\"x\"`: expected `]` to close the attribute, found the end at character 10",
            ),
            (
                "#a:nth(x)",
                "bad selector `#a:nth(x)`: expected a number (0-based index) in `:nth(…)` at character 8",
            ),
            (
                "#a:hover",
                "bad selector `#a:hover`: unknown pseudo-class `:hover` (known: `:nth(n)`, `:text(\"…\")`) at character 4",
            ),
            (
                "[text='x]",
                "bad selector `[text='x]`: unterminated string starting with `'` at character 7",
            ),
            (
                "#a,#b",
                "bad selector `#a,#b`: unexpected `,` at character 3",
            ),
            (
                "#a > > #b",
                "bad selector `#a > > #b`: expected `#id`, a type, `[attr=\"value\"]` or `:nth(n)`, found `>` at character 6",
            ),
        ];
        for (selector, message) in cases {
            assert_eq!(parse(selector).expect_err(selector), message);
        }
        assert_eq!(
            parse("Buton").expect_err("a type mistyped"),
            "bad selector `Buton`: unknown element type `Buton` at character 1; did you mean the type `Button`?"
        );
        let bare = parse("btn-inc").expect_err("an id without its #");
        assert!(
            bare.contains(
                "ScrollViewer) at character 1; an id is written `#btn-inc`, an element by its text `:text(\"btn-inc\")`"
            ),
            "{bare}"
        );
        let attribute = parse("[colour=red]").expect_err("unknown attribute");
        assert!(
            attribute.contains("unknown attribute `colour` (known: id, type, name"),
            "{attribute}"
        );
    }
}
