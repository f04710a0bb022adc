//! Context sizes in tokens: OpenAI's `o200k_base` encoding (tiktoken-rs ships its
//! vocabulary, so counting works offline). Other models tokenize differently, so these
//! counts are estimates for them; the report says so.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

/// The encoding every count uses, named in results and reports.
pub const ENCODING: &str = "o200k_base";

/// The encoding, loaded once per process (its vocabulary takes a moment to build).
fn bpe() -> Option<&'static CoreBPE> {
    static BPE: OnceLock<Option<CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().ok()).as_ref()
}

/// The tokens of `text`. Special-token markers in an agent's text are counted as the
/// plain text they are, as a model would see them.
pub fn count(text: &str) -> u64 {
    bpe().map_or_else(
        // The vocabulary ships in the crate: failing to build it is a broken build,
        // and a count of bytes / 4 keeps the study going with a visibly rough number.
        || text.len().div_ceil(4) as u64,
        |bpe| bpe.encode_ordinary(text).len() as u64,
    )
}

/// A text's size as a study records it: bytes and tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Size {
    pub bytes: u64,
    pub tokens: u64,
}

impl Size {
    pub fn of(text: &str) -> Self {
        Self {
            bytes: text.len() as u64,
            tokens: count(text),
        }
    }

    pub fn add(self, other: Self) -> Self {
        Self {
            bytes: self.bytes + other.bytes,
            tokens: self.tokens + other.tokens,
        }
    }
}

impl std::iter::Sum for Size {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), Self::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_text_has_the_encodings_count() {
        let text = "Hello, world! The sample app shows a counter at 0.";
        let direct = tiktoken_rs::o200k_base()
            .expect("o200k_base ships in the crate")
            .encode_ordinary(text)
            .len() as u64;
        assert_eq!(count(text), direct);
        assert_eq!(count(text), 14);
        assert_eq!(
            Size::of(text),
            Size {
                bytes: 50,
                tokens: 14
            }
        );
    }

    #[test]
    fn sizes_add_up() {
        let total: Size = ["a b", "", "c"].into_iter().map(Size::of).sum();
        assert_eq!(total.bytes, 4);
        assert_eq!(total.tokens, count("a b") + count("c"));
    }
}
