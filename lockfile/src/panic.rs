//! What a caught panic said, read one way for the errors a panic becomes: a session's
//! tool handler's (mur-server), a study's run's (mur-eval).

use std::any::Any;

/// The text a panic carried (`panic!("…")`'s, formatted or not), else "no message"
/// (`panic_any(42)`): every error a panic becomes ends with one or the other, never
/// with nothing.
pub fn panic_message(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panics_text_is_read_whether_formatted_or_not() {
        let literal = std::panic::catch_unwind(|| panic!("a literal")).expect_err("panicked");
        assert_eq!(panic_message(&*literal), "a literal");
        let n = 3;
        let formatted = std::panic::catch_unwind(|| panic!("{n} formatted")).expect_err("panicked");
        assert_eq!(panic_message(&*formatted), "3 formatted");
        let other =
            std::panic::catch_unwind(|| std::panic::panic_any(42_u8)).expect_err("panicked");
        assert_eq!(panic_message(&*other), "no message");
    }
}
