//! A digest as mur writes it down: a verb file's sha256 (the index's record of it and
//! the compile cache's key), a session's tool-list key, and mur-eval's keys of its
//! tasks, conditions and compiled verbs — each in lowercase hex, one way everywhere.

use sha2::{Digest as _, Sha256};

/// `bytes`' sha256, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `bytes` in lowercase hex, two digits a byte: a digest taken a piece at a time (a
/// file read in chunks, several files into one key) as it is written down.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sha256_is_written_in_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex(&[0, 0x0f, 0xa0, 0xff]), "000fa0ff");
    }
}
